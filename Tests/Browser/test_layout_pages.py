"""The round's new pages measured like the list (element boxes, never pixels): import (form and a
preview with create, update and error rows), trash, drafts, sales and the detail page's sale form,
at 1366×900 and 390×844, in Korean and English: nothing scrolls sideways, short labels and badges
stay on one line, the navigation marks the page it is on, and axe finds 0 serious or critical
violations in either theme."""
import datetime
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SECRET, axe_source, make_browser, png, write_file
from test_layout import SHORT_TEXTS, SIZES, THEMES, no_sideways_scroll, open_page

LANGUAGES = ["ko", "en"]
# Badges too: an outcome badge ("등록", "완료") must never break between its syllables.
SHORT_TEXTS_AND_BADGES = SHORT_TEXTS.replace("'label, legend, button, summary, a.button, [data-view-toggle]'",
                                             "'label, legend, button, summary, a.button, [data-view-toggle], .badge'")
assert SHORT_TEXTS_AND_BADGES != SHORT_TEXTS


def wait(driver, seconds=30):
    return WebDriverWait(driver, seconds)


def local_time(seconds_from_now):
    """A datetime-local value in the panel's zone (the machine's: the fixture panel has no --time-zone)."""
    moment = datetime.datetime.now().astimezone() + datetime.timedelta(seconds=seconds_from_now)
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def schedule_sale(driver, panel, product_id, discount, start, end):
    driver.get(f"{panel.url}/products/{product_id}")
    for name, value in (("sale_discount", discount), ("sale_start", local_time(start)), ("sale_end", local_time(end))):
        field = driver.find_element(By.CSS_SELECTOR, f'[data-sale-form] input[name="{name}"]')
        # The inputs step by minutes; a time with seconds is made the input's own value, so the
        # browser counts it as a valid step (the server takes seconds).
        driver.execute_script("arguments[0].setAttribute('value', arguments[1]); arguments[0].value = arguments[1]",
                              field, value)
    driver.find_element(By.CSS_SELECTOR, "[data-sale-form] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-product-sales] [data-state]"))


@pytest.fixture(scope="module")
def js_browser():
    driver = make_browser()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def seeded(panel, js_browser):
    """A product in the trash, a draft, a running and a scheduled sale (one cancelled), an edit."""
    driver = js_browser
    made = [panel.register(name, price=12000 + 1000 * n, stock=3 + n, images=[("p.png", png(48, 48, seed=n))])
            for n, name in enumerate(["스테인리스 텀블러 500ml", "Linen apron", "제주 감귤 5kg 선물세트", "오래된 머그컵"])]
    driver.get(f"{panel.url}/products/{made[3]['id']}/delete")
    driver.find_element(By.CSS_SELECTOR, "main form input[name=password]").send_keys(SECRET)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait(driver).until(lambda d: "/delete" not in d.current_url)
    driver.get(panel.url + "/products/new")
    driver.find_element(By.CSS_SELECTOR, "main form input[name=name]").send_keys("겨울 니트 머플러 (작성 중)")
    driver.find_element(By.CSS_SELECTOR, 'main form button[name="draft"]').click()
    wait(driver).until(lambda d: "/products/new" not in d.current_url)
    schedule_sale(driver, panel, made[0]["id"], "3,000", 1, 86400 * 3)
    schedule_sale(driver, panel, made[1]["id"], "10%", 86400, 86400 * 2)
    schedule_sale(driver, panel, made[2]["id"], "1000", 86400 * 2, 86400 * 3)
    driver.get(panel.url + "/sales")
    driver.find_elements(By.CSS_SELECTOR, '[data-sale][data-state="scheduled"] form button[type=submit]')[-1].click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sale][data-state="cancelled"]'))
    return made


def import_preview(driver, panel, product_id, language):
    """A preview with an update row, a create row and two error rows (nothing applied)."""
    with tempfile.TemporaryDirectory(prefix="om-layout-import-") as folder:
        csv = ("id,name,description,price,currency,stock,images\r\n"
               f"{product_id},,,\"13,000\",KRW,7,\r\n"
               ",수제 유자청 500g,\"국산 유자로 만든 유자청입니다.\",\"9,900\",KRW,12,yuja.png\r\n"
               ",Walnut tray,Oiled walnut,12000.5,KRW,3,missing.jpg\r\n"
               "999999999,없는 상품,,1000,KRW,1,\r\n")
        csv_path = write_file(folder, "products.csv", csv.encode("utf-8"))
        photo_path = write_file(folder, "yuja.png", png(32, 24, seed=5))
        driver.get(f"{panel.url}/products/import?lang={language}")
        driver.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(csv_path)
        driver.find_element(By.CSS_SELECTOR, "input[name=images]").send_keys(photo_path)
        driver.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))
    outcomes = {row.get_attribute("data-outcome") for row in driver.find_elements(By.CSS_SELECTOR, "[data-import-row]")}
    assert outcomes == {"update", "create", "error"}, outcomes


def paths(seeded):
    return ["/products/import", "/trash", "/drafts", "/sales", f"/products/{seeded[0]['id']}", "/activity"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_new_pages_fit_a_phone_and_keep_short_labels_on_one_line(panel, seeded, js_browser, size, language):
    driver = js_browser
    for path in paths(seeded):
        open_page(driver, panel, path, size, language)
        assert no_sideways_scroll(driver), path
        assert driver.execute_script(SHORT_TEXTS_AND_BADGES) == [], path
        if path.startswith("/products/") and path != "/products/import":   # the detail page, with its sale form
            assert driver.find_elements(By.CSS_SELECTOR, "[data-product-sales] [data-sale-form]")
    open_page(driver, panel, "/products", size, language)
    import_preview(driver, panel, seeded[1]["id"], language)
    assert no_sideways_scroll(driver), "import preview"
    assert driver.execute_script(SHORT_TEXTS_AND_BADGES) == [], "import preview"


@pytest.mark.parametrize("path", ["/sales", "/drafts", "/trash", "/activity"])
def test_the_navigation_marks_the_page_it_is_on(panel, seeded, js_browser, path):
    open_page(js_browser, panel, path, "desktop", "ko")
    current = js_browser.find_elements(By.CSS_SELECTOR, 'nav a[aria-current="page"]')
    assert [a.get_attribute("pathname") for a in current] == [path]


def test_korean_pages_read_without_english_or_bracketed_particles(panel, seeded, js_browser):
    """No `을(를)`-style particles on the new pages, and the trash/drafts/sales chrome in Korean."""
    for path in paths(seeded):
        open_page(js_browser, panel, path, "phone", "ko")
        text = js_browser.find_element(By.CSS_SELECTOR, "main").text
        for bracketed in ("을(를)", "이(가)", "은(는)", "(으)로", "와(과)", "과(와)"):
            assert bracketed not in text, (path, bracketed)
        assert js_browser.execute_script("return getComputedStyle(document.querySelector('main')).wordBreak") == "keep-all", path


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", SIZES)
def test_axe_on_the_new_pages(panel, seeded, js_browser, theme, size):
    driver = js_browser
    axe = axe_source()

    def serious():
        driver.execute_script(axe)
        violations = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations),"
            " (e) => done([{id: 'axe-error', impact: 'critical', description: String(e), nodes: []}]));")
        return [(v["id"], [n.get("target") for n in v["nodes"][:3]]) for v in violations
                if v.get("impact") in ("serious", "critical")]

    for path in paths(seeded):
        open_page(driver, panel, path, size, "ko", theme)
        assert serious() == [], path
    import_preview(driver, panel, seeded[1]["id"], "ko")
    assert serious() == [], "import preview"
