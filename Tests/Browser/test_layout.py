"""The list page's layout, measured from element boxes (never pixels), at 1366×900 and 390×844,
in Korean and English, light and dark: the search is the widest control, products come first on
a phone, nothing scrolls sideways, short labels stay on one line, filters apply on change and
show as removable chips, the bulk bar appears once a product is ticked, a refused bulk request
keeps the seller's ticks, and shortcuts go by the physical key."""
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import axe_source, make_browser, png

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
LANGUAGES = ["ko", "en"]
THEMES = ["light", "dark"]


def wait(driver, seconds=20):
    return WebDriverWait(driver, seconds)


@pytest.fixture(scope="module")
def catalog(panel):
    """A page of products of every kind: long and Korean names, discounts, sold out, USD."""
    made = []
    names = ["스테인리스 텀블러 500ml", "Linen apron", "제주 감귤 5kg 선물세트", "Ceramic mug 350ml",
             "무선 충전 패드 15W", "Cotton tote bag", "수제 딸기잼 2병",
             "Desk lamp with a very long name that goes on and on for quite a while, really"]
    for n, name in enumerate(names):
        made.append(panel.register(name, price=12000 + 1000 * n, discounted=(1000 if n % 3 == 0 else 0),
                                   stock=(0 if n % 4 == 1 else 3 + n), images=[("p.png", png(48, 48, seed=n))]))
    made.append(panel.register("Imported notebook", price=19.5, stock=2, currency="USD"))
    return made


@pytest.fixture(scope="module")
def js_browser():
    driver = make_browser()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def plain_browser():
    driver = make_browser(javascript=False)
    yield driver
    driver.quit()


def view_at(driver, size, theme="light"):
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": theme}]})


def open_page(driver, panel, path, size, language, theme="light"):
    view_at(driver, size, theme)
    separator = "&" if "?" in path else "?"
    driver.get(f"{panel.url}{path}{separator}lang={language}")
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def box(driver, element):
    return driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                                 "return {left: r.left, top: r.top + window.scrollY, width: r.width, height: r.height};", element)


def fresh_list(driver, panel, size, language, view="list", theme="light"):
    """The list once the copy has every product (the panel's own copy is refreshed first)."""
    open_page(driver, panel, f"/products/refresh?back=/products%3Fview%3D{view}", size, language, theme)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-product-id]"))


# ---- the search field and the first screen

@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("view", ["list", "grid"])
def test_search_is_the_widest_control_and_products_come_first(panel, catalog, js_browser, size, language, view):
    driver = js_browser
    fresh_list(driver, panel, size, language, view)
    search = driver.find_element(By.CSS_SELECTOR, "form[role=search] input[name=q]")
    search_width = box(driver, search)["width"]
    controls = [c for c in driver.find_elements(By.CSS_SELECTOR, "form[role=search] input, form[role=search] select, "
                                                                 "form[role=search] button") if c.is_displayed()]
    assert controls and all(box(driver, c)["width"] <= search_width for c in controls)
    if size == "desktop":
        content = driver.execute_script(
            "const m = document.querySelector('main'); const s = getComputedStyle(m);"
            "return m.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);")
        assert search_width >= 0.4 * content, (search_width, content)
    else:
        assert search_width >= 0.7 * SIZES["phone"][0], search_width
    first = driver.find_element(By.CSS_SELECTOR, "[data-product-id]")
    assert box(driver, first)["top"] < SIZES[size][1], box(driver, first)
    # The count and the view switch share one line (their boxes overlap vertically).
    count = box(driver, driver.find_element(By.CSS_SELECTOR, "[data-count]"))
    views = box(driver, driver.find_element(By.CSS_SELECTOR, ".view-switch"))
    assert count["top"] < views["top"] + views["height"] and views["top"] < count["top"] + count["height"]


@pytest.mark.parametrize("view", ["list", "grid"])
def test_products_come_first_on_a_phone_without_javascript(panel, catalog, plain_browser, view):
    fresh_list(plain_browser, panel, "phone", "ko", view)
    first = plain_browser.find_element(By.CSS_SELECTOR, "[data-product-id]")
    assert box(plain_browser, first)["top"] < SIZES["phone"][1]


PAGES = ["/products?view=list", "/products?view=grid", "/products?q=%ED%85%80%EB%B8%94%EB%9F%AC&stock=in-stock&discounted=1",
         "/products?q=mug&stock=sold-out", "/products/new", "/activity", "/account", "/no/such/page"]


def no_sideways_scroll(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")


SHORT_TEXTS = """
    const own = (el) => {
      const parts = [];
      const walk = (node) => {
        for (const child of node.childNodes) {
          if (child.nodeType === 3) parts.push(child);
          else if (child.nodeType === 1 && !/^(SELECT|OPTION|INPUT|TEXTAREA|SCRIPT)$/.test(child.tagName)
                   && getComputedStyle(child).display !== 'none' && child.getBoundingClientRect().width > 1) walk(child);
        }
      };
      walk(el);
      return parts;
    };
    const broken = [];
    for (const el of document.querySelectorAll('label, legend, button, summary, a.button, [data-view-toggle]')) {
      // Only what is seen: skip hidden elements and text kept for screen readers (1 px boxes).
      if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden' || el.getBoundingClientRect().width <= 1) continue;
      const nodes = own(el);
      const text = nodes.map((n) => n.textContent).join('').replace(/\\s+/g, ' ').trim();
      if (!text || [...text].length > 8) continue;
      const tops = new Set();
      for (const n of nodes) {
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) if (r.width > 0.5) tops.add(Math.round(r.top / 4));
      }
      if (tops.size > 1) broken.push(text);
    }
    return broken;
"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sideways_scroll_and_short_labels_on_one_line(panel, catalog, js_browser, size, language):
    driver = js_browser
    fresh_list(driver, panel, size, language)
    pages = PAGES + [f"/products/{catalog[0]['id']}", f"/products/{catalog[0]['id']}/edit",
                     f"/products/{catalog[0]['id']}/delete"]
    for path in pages:
        open_page(driver, panel, path, size, language)
        assert no_sideways_scroll(driver), path
        assert driver.execute_script(SHORT_TEXTS) == [], path
    # The bulk bar, once shown, too.
    open_page(driver, panel, "/products?sort=oldest", size, language)
    driver.find_element(By.CSS_SELECTOR, 'input[name="ids"]').click()
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "form[data-bulk]").is_displayed())
    for action in ["set-stock", "set-discount", "adjust-price", "delete"]:
        Select(driver.find_element(By.CSS_SELECTOR, "form[data-bulk] select[name=action]")).select_by_value(action)
        assert no_sideways_scroll(driver) and driver.execute_script(SHORT_TEXTS) == [], action


def test_korean_never_breaks_inside_a_word(panel, catalog, js_browser):
    open_page(js_browser, panel, "/products", "phone", "ko")
    assert js_browser.execute_script("return getComputedStyle(document.querySelector('main')).wordBreak") == "keep-all"


# ---- filters: applied on change, shown as chips, a polite count, an empty result that says why

def query_of(driver):
    return parse_qs(urlsplit(driver.current_url).query)


@pytest.mark.parametrize("size", SIZES)
def test_filters_apply_on_change_and_show_as_removable_chips(panel, catalog, js_browser, size):
    driver = js_browser
    fresh_list(driver, panel, size, "en")
    count = driver.find_element(By.CSS_SELECTOR, "[data-count]")
    assert count.get_attribute("aria-live") == "polite" and count.get_attribute("role") != "status"
    assert not driver.find_element(By.CSS_SELECTOR, "form[role=search] .filters button[type=submit]").is_displayed()
    if size == "phone":
        summary = driver.find_element(By.CSS_SELECTOR, "details.filters > summary")
        assert summary.is_displayed()
        summary.click()
    before = count.text
    driver.find_element(By.CSS_SELECTOR, "input[name=stock][value=sold-out]").click()
    wait(driver).until(lambda d: query_of(d).get("stock") == ["sold-out"] and not d.find_elements(By.CSS_SELECTOR, "main[aria-busy]"))
    sold_out = [p["id"] for p in catalog if p["stock"] == 0]
    shown = [int(e.get_attribute("data-product-id")) for e in driver.find_elements(By.CSS_SELECTOR, "[data-product-id]")]
    assert sorted(shown) == sorted(sold_out)
    assert driver.find_element(By.CSS_SELECTOR, "[data-count]").text != before   # the same live region, new words
    driver.find_element(By.CSS_SELECTOR, "input[name=discounted]").click()
    wait(driver).until(lambda d: query_of(d).get("discounted") == ["1"] and len(d.find_elements(By.CSS_SELECTOR, "[data-filter-chip]")) == 2)
    # Removing one chip removes that filter only.
    chip = next(c for c in driver.find_elements(By.CSS_SELECTOR, "[data-filter-chip]") if "Sold out" in c.text)
    chip.click()
    wait(driver).until(lambda d: "stock" not in query_of(d))
    assert query_of(driver).get("discounted") == ["1"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "[data-filter-chip]")) == 1


def test_without_javascript_an_apply_button_applies_the_filters(panel, catalog, plain_browser):
    driver = plain_browser
    fresh_list(driver, panel, "desktop", "en")
    apply = driver.find_element(By.CSS_SELECTOR, "form[role=search] .filters button[type=submit]")
    assert apply.is_displayed()
    driver.find_element(By.CSS_SELECTOR, "input[name=stock][value=sold-out]").click()
    apply.click()
    wait(driver).until(lambda d: query_of(d).get("stock") == ["sold-out"])
    assert driver.find_elements(By.CSS_SELECTOR, "[data-filter-chip]")


def test_an_empty_result_says_whether_the_words_or_the_filters_emptied_it(panel, catalog, js_browser):
    driver = js_browser
    fresh_list(driver, panel, "desktop", "en")
    # "mug" finds a product, but it is in stock: the filters hid it.
    open_page(driver, panel, "/products?q=mug&stock=sold-out", "desktop", "en")
    empty = driver.find_element(By.CSS_SELECTOR, ".empty-state")
    assert "filters" in empty.text.lower()
    empty.find_element(By.CSS_SELECTOR, "a.button").click()
    wait(driver).until(lambda d: "stock" not in query_of(d))
    assert query_of(driver).get("q") == ["mug"] and driver.find_elements(By.CSS_SELECTOR, "[data-product-id]")
    # Words that match nothing: the link clears the words and keeps the filters.
    open_page(driver, panel, "/products?q=zzzz-nothing&stock=sold-out", "desktop", "en")
    empty = driver.find_element(By.CSS_SELECTOR, ".empty-state")
    assert "zzzz-nothing" in empty.text
    empty.find_element(By.CSS_SELECTOR, "a.button").click()
    wait(driver).until(lambda d: "q" not in query_of(d))
    assert query_of(driver).get("stock") == ["sold-out"]


# ---- the bulk bar and refused requests

@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("theme", THEMES)
def test_bulk_bar_appears_once_a_product_is_ticked(panel, catalog, js_browser, size, theme):
    driver = js_browser
    fresh_list(driver, panel, size, "ko", theme=theme)
    bar = driver.find_element(By.CSS_SELECTOR, "form[data-bulk]")
    assert not bar.is_displayed()
    boxes = driver.find_elements(By.CSS_SELECTOR, 'input[name="ids"]')
    first_top = box(driver, driver.find_element(By.CSS_SELECTOR, "[data-product-id]"))["top"]
    boxes[0].click()
    assert bar.is_displayed()
    # Ticking moves nothing on the page (the bar takes the count's place, or floats on a phone).
    assert abs(box(driver, driver.find_element(By.CSS_SELECTOR, "[data-product-id]"))["top"] - first_top) < 1
    if size == "phone":
        position = driver.execute_script("return getComputedStyle(arguments[0]).position", bar)
        assert position in ("fixed", "sticky")
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        rect = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", bar)
        assert rect["top"] >= 0 and rect["bottom"] <= SIZES["phone"][1]   # still on screen
    # Only the chosen action's field shows.
    Select(driver.find_element(By.CSS_SELECTOR, "form[data-bulk] select[name=action]")).select_by_value("delete")
    assert driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=password]").is_displayed()
    assert not driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=stock]").is_displayed()
    driver.execute_script("arguments[0].click()", boxes[0])
    assert not bar.is_displayed()


def test_bulk_bar_is_there_without_javascript(panel, catalog, plain_browser):
    fresh_list(plain_browser, panel, "desktop", "ko")
    bar = plain_browser.find_element(By.CSS_SELECTOR, "form[data-bulk]")
    assert bar.is_displayed()
    for name in ["action", "stock", "discounted_price", "amount", "password"]:
        assert plain_browser.find_element(By.CSS_SELECTOR, f"form[data-bulk] [name={name}]").is_displayed()


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_bulk_request_keeps_the_sellers_work(panel, catalog, js_browser, plain_browser, javascript, language):
    driver = js_browser if javascript else plain_browser
    open_page(driver, panel, "/products/refresh?back=/products%3Fsort%3Doldest", "desktop", language)
    chosen = [catalog[0]["id"], catalog[2]["id"]]
    for product_id in chosen:
        driver.find_element(By.CSS_SELECTOR, f'input[name="ids"][value="{product_id}"]').click()
    Select(driver.find_element(By.CSS_SELECTOR, "form[data-bulk] select[name=action]")).select_by_value("adjust-price")
    driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=amount]").send_keys("about a thousand")
    driver.find_element(By.CSS_SELECTOR, "form[data-bulk] button[type=submit]").click()
    alert = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-bulk-refusal]"))
    assert alert.get_attribute("role") == "alert" and alert.is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "[role=status]")
    red, green = driver.execute_script(
        "const c = getComputedStyle(arguments[0]).color.match(/\\d+/g).map(Number); return [c[0], c[1]];", alert)
    assert red > green   # styled as an error (the danger colour), not as a success
    ticked = sorted(int(b.get_attribute("value")) for b in driver.find_elements(By.CSS_SELECTOR, 'input[name="ids"]') if b.is_selected())
    assert ticked == sorted(chosen)
    assert Select(driver.find_element(By.CSS_SELECTOR, "form[data-bulk] select[name=action]")).first_selected_option.get_attribute("value") == "adjust-price"
    assert driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=amount]").get_attribute("value") == "about a thousand"
    assert driver.find_element(By.CSS_SELECTOR, "form[data-bulk]").is_displayed()
    assert query_of(driver).get("sort") == ["oldest"] or "/products/bulk" in driver.current_url


def test_nothing_ticked_is_refused_with_the_values_kept(panel, catalog, plain_browser):
    driver = plain_browser
    open_page(driver, panel, "/products?sort=oldest", "desktop", "en")
    driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=stock]").send_keys("12")
    driver.find_element(By.CSS_SELECTOR, "form[data-bulk] button[type=submit]").click()
    alert = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-bulk-refusal]"))
    assert alert.get_attribute("role") == "alert"
    assert driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=stock]").get_attribute("value") == "12"


# ---- shortcuts by physical key

def press(driver, code, key):
    for kind in ("keyDown", "keyUp"):
        driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": kind, "code": code, "key": key, "text": key if kind == "keyDown" else ""})


def test_shortcuts_go_by_the_physical_key_in_a_korean_input_mode(panel, catalog, js_browser):
    driver = js_browser
    fresh_list(driver, panel, "desktop", "ko")
    press(driver, "KeyG", "ㅎ")     # G types ㅎ in the Korean 2-set layout
    wait(driver).until(lambda d: query_of(d).get("view") == ["grid"])
    press(driver, "KeyL", "ㅣ")
    wait(driver).until(lambda d: query_of(d).get("view") == ["list"])
    press(driver, "KeyJ", "ㅓ")
    focused = driver.switch_to.active_element
    assert focused.find_element(By.XPATH, "./ancestor::*[@data-product-id]")
    # Off while typing: N in the search field types, and stays on the list.
    search = driver.find_element(By.CSS_SELECTOR, "input[name=q]")
    search.click()
    press(driver, "KeyN", "ㅜ")
    assert "/products/new" not in driver.current_url
    driver.find_element(By.TAG_NAME, "h1").click()
    press(driver, "KeyN", "ㅜ")
    wait(driver).until(lambda d: "/products/new" in d.current_url)


# ---- axe on the new states

@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", SIZES)
def test_axe_on_chips_and_a_refused_request(panel, catalog, js_browser, theme, size):
    driver = js_browser
    axe = axe_source()
    for path in ["/products?q=mug&stock=sold-out&discounted=1", "/products?stock=in-stock&currency=KRW"]:
        open_page(driver, panel, path, size, "ko", theme)
        driver.execute_script(axe)
        violations = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations));")
        serious = [(v["id"], [n.get("target") for n in v["nodes"][:3]]) for v in violations if v.get("impact") in ("serious", "critical")]
        assert serious == [], (path, serious)
