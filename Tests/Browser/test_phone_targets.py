"""A phone a seller can tap, at 390×844 in Korean, signed in as the owner (the fullest menu):
every visible control on the list, detail, register, import, sales and activity pages has a hit
area of at least 44×44 px, and below 600 px the navigation is a menu, closed at first, that opens
(also without JavaScript) onto every item while 상품 등록 stays one tap away."""
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import Panel, make_browser, png, write_file

OWNER = ("김사장", "owner-password-1")
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
DESKTOP = {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False}

# The hit area of every control a thumb may need: links, buttons, fields, menus' summaries; a
# checkbox or radio counts by its label (it keeps its look inside a larger label). Left out, with
# reason: a link inside running text (a sentence's link, as WCAG's target-size rule exempts it),
# and the skip link, which is off screen until a keyboard focuses it.
SMALL_TARGETS = """
const controls = document.querySelectorAll(
  'a[href], button, select, textarea, summary, input:not([type=hidden]), [role=button]');
const small = [];
const inRunningText = (el) => {
  if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
  const around = el.parentElement.textContent.replace(el.textContent, '').trim();
  return around.replace(/[·|()\\s]/g, '').length > 0;
};
for (const el of controls) {
  if (el.matches('.skip-link') || inRunningText(el)) continue;
  let target = el;
  if (el.matches('input[type=checkbox], input[type=radio]')) {
    target = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
  }
  if (!target.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
  const box = target.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  if (box.width < 43.5 || box.height < 43.5) {
    const name = el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : el.getAttribute('href') ? `[href=${el.getAttribute('href')}]` : '';
    small.push(`${el.tagName.toLowerCase()}${name}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''}`
      + ` "${(el.textContent || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 24)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
}
return small;
"""


def wait(driver, seconds=30):
    return WebDriverWait(driver, seconds)


def go(driver, panel, path, metrics=PHONE):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.get(panel.url + path)
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def local_time(seconds_from_now):
    """A datetime-local value in Seoul's time (the panel runs with --time-zone Asia/Seoul)."""
    return time.strftime("%Y-%m-%dT%H:%M", time.gmtime(time.time() + 9 * 3600 + seconds_from_now))


def open_menu(driver):
    driver.find_element(By.CSS_SELECTOR, "[data-nav-menu] > summary").click()
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "nav a[href='/activity']").is_displayed())


def small_targets(driver):
    """The small controls of the page with every disclosure open (the list's filters, an activity
    row's details), and again with the navigation menu open."""
    driver.execute_script("document.querySelectorAll('details:not([data-nav-menu])').forEach((d) => { d.open = true; })")
    small = driver.execute_script(SMALL_TARGETS)
    open_menu(driver)
    return small + [f"(menu open) {target}" for target in driver.execute_script(SMALL_TARGETS)]


@pytest.fixture(scope="module")
def shop():
    """A signed-in owner's panel with products, an edit, a sale and an import row in the log."""
    with tempfile.TemporaryDirectory(prefix="om-phone-") as folder:
        panel = Panel(folder, extra_args=["--sign-in", "--time-zone", "Asia/Seoul"])
        driver = make_browser(language="ko-KR")
        try:
            driver.get(panel.setup_link())
            form = driver.find_element(By.CSS_SELECTOR, "main form")
            for name, value in (("name", OWNER[0]), ("password", OWNER[1]), ("password_confirm", OWNER[1])):
                form.find_element(By.NAME, name).send_keys(value)
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait(driver).until(lambda d: d.current_url.endswith("/products"))
            made = [panel.register(name, price=12000 + 1000 * n, discounted=1000 * (n % 2), stock=n)
                    for n, name in enumerate(["터치 영역 텀블러", "터치 영역 앞치마", "터치 영역 감귤 5kg"])]
            go(driver, panel, "/products/refresh?back=/products", DESKTOP)
            go(driver, panel, f"/products/{made[0]['id']}/edit", DESKTOP)
            price = driver.find_element(By.NAME, "price")
            price.clear()
            price.send_keys("15900")
            driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]:not([name])").click()
            wait(driver).until(lambda d: "/edit" not in d.current_url)
            go(driver, panel, f"/products/{made[1]['id']}", DESKTOP)
            for name, value in (("sale_discount", "10%"), ("sale_start", local_time(86400)), ("sale_end", local_time(86400 * 3))):
                field = driver.find_element(By.CSS_SELECTOR, f'[data-sale-form] input[name="{name}"]')
                driver.execute_script("arguments[0].value = arguments[1]", field, value)
            driver.find_element(By.CSS_SELECTOR, "[data-sale-form] button[type=submit]").click()
            wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-product-sales] [data-state]"))
            yield panel, driver, made, folder
        finally:
            driver.quit()
            panel.stop()


def test_the_list_and_its_bulk_bar(shop):
    panel, driver, made, _ = shop
    go(driver, panel, "/products")
    assert driver.find_elements(By.CSS_SELECTOR, "input[name=stock][type=radio]")
    small = small_targets(driver)
    go(driver, panel, "/products")
    driver.find_element(By.CSS_SELECTOR, ".product__select-hit").click()
    action = Select(driver.find_element(By.CSS_SELECTOR, "form[data-bulk] select[name=action]"))
    for value in [option.get_attribute("value") for option in action.options]:
        action.select_by_value(value)
        small += [f"(bulk {value}) {target}" for target in driver.execute_script(SMALL_TARGETS)]
    go(driver, panel, "/products?view=grid")
    small += [f"(grid) {target}" for target in driver.execute_script(SMALL_TARGETS)]
    assert small == [], "\n".join(small)


def test_the_detail_page_and_its_delete_dialog(shop):
    panel, driver, made, _ = shop
    go(driver, panel, f"/products/{made[0]['id']}")
    small = small_targets(driver)
    go(driver, panel, f"/products/{made[0]['id']}")
    driver.find_element(By.CSS_SELECTOR, "[data-delete-open]").click()
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog[data-delete-dialog]").get_attribute("open") is not None)
    small += [f"(dialog) {target}" for target in driver.execute_script(SMALL_TARGETS)]
    assert small == [], "\n".join(small)


def test_the_register_form_with_photos_picked(shop):
    panel, driver, _, folder = shop
    go(driver, panel, "/products/new")
    photos = [write_file(folder, f"사진{n}.png", png(40, 30, seed=n)) for n in range(2)]
    driver.find_element(By.CSS_SELECTOR, "input[name=images]").send_keys("\n".join(photos))
    wait(driver).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".image-item")) == 2)
    small = small_targets(driver)
    assert small == [], "\n".join(small)


def test_the_import_form_and_a_preview(shop):
    panel, driver, made, folder = shop
    go(driver, panel, "/products/import")
    small = small_targets(driver)
    csv = ("상품번호,상품명,상세설명,판매가,재고수량,이미지\r\n"
           f"{made[2]['id']},,,\"13,000\",7,\r\n"
           ",호두 쟁반,호두 쟁반,12000.5,3,없는사진.jpg\r\n")
    go(driver, panel, "/products/import")
    driver.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(write_file(folder, "상품.csv", csv.encode("cp949")))
    driver.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))
    small += [f"(preview) {target}" for target in driver.execute_script(SMALL_TARGETS)]
    assert small == [], "\n".join(small)


@pytest.mark.parametrize("path", ["/sales", "/activity"])
def test_sales_and_activity(shop, path):
    panel, driver, _, _ = shop
    go(driver, panel, path)
    assert driver.find_elements(By.CSS_SELECTOR, "[data-sale], [data-revert]"), path
    small = small_targets(driver)
    assert small == [], path + "\n" + "\n".join(small)


def test_the_menu_is_closed_on_a_phone_and_opens_onto_every_item(shop):
    panel, driver, _, _ = shop
    go(driver, panel, "/products")
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-nav-menu] > summary")
    items = driver.find_elements(By.CSS_SELECTOR, ".site-header nav li")
    assert toggle.is_displayed()
    assert not any(item.is_displayed() for item in items)
    register = driver.find_element(By.CSS_SELECTOR, ".site-header a[href='/products/new']")
    assert register.is_displayed() and register.rect["y"] + register.rect["height"] <= 70
    assert driver.find_element(By.CSS_SELECTOR, ".site-header").rect["height"] <= 70   # one row
    open_menu(driver)
    shown = [item.text for item in items if item.is_displayed()]
    # Every place (the register link, already beside the button, is not repeated), the owner's
    # name and sign-out, and the languages.
    expected = ["/products", "/sales", "/activity", "/drafts", "/trash", "/people", "/account"]
    for href in expected:
        assert driver.find_element(By.CSS_SELECTOR, f".site-header nav a[href='{href}']").is_displayed(), href
    assert driver.find_element(By.CSS_SELECTOR, ".site-header nav form[action='/logout'] button").is_displayed()
    assert all(a.is_displayed() for a in driver.find_elements(By.CSS_SELECTOR, "[data-language-switch] a"))
    assert len(shown) == len(expected) + 1, shown
    assert register.is_displayed()
    # Every item is on the screen, none scrolls it sideways, and a tap goes there.
    bottom = max(item.rect["y"] + item.rect["height"] for item in items if item.is_displayed())
    assert bottom <= 844, bottom
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
    driver.find_element(By.CSS_SELECTOR, ".site-header nav a[href='/trash']").click()
    wait(driver).until(lambda d: d.current_url.split("?")[0].endswith("/trash"))
    # On a desktop there is no menu button: the bar shows every item.
    go(driver, panel, "/products", DESKTOP)
    assert not driver.find_element(By.CSS_SELECTOR, "[data-nav-menu] > summary").is_displayed()
    assert all(item.is_displayed() for item in driver.find_elements(By.CSS_SELECTOR, ".site-header nav li"))


def test_the_menu_works_without_javascript(shop):
    panel, driver, _, _ = shop
    plain = make_browser(javascript=False, language="ko-KR")
    try:
        go(plain, panel, "/login")
        form = plain.find_element(By.CSS_SELECTOR, "main form")
        form.find_element(By.NAME, "name").send_keys(OWNER[0])
        form.find_element(By.NAME, "password").send_keys(OWNER[1])
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(plain).until(lambda d: d.current_url.endswith("/products"))
        assert not plain.execute_script("return document.documentElement.classList.contains('js')")
        go(plain, panel, "/products")
        activity = plain.find_element(By.CSS_SELECTOR, ".site-header nav a[href='/activity']")
        assert not activity.is_displayed()
        assert plain.find_element(By.CSS_SELECTOR, ".site-header a[href='/products/new']").is_displayed()
        plain.find_element(By.CSS_SELECTOR, "[data-nav-menu] > summary").click()
        wait(plain).until(lambda d: activity.is_displayed())
        activity.click()
        wait(plain).until(lambda d: d.current_url.split("?")[0].endswith("/activity"))
    finally:
        plain.quit()


def test_the_header_shows_the_whole_name_in_english_too(shop):
    """"OpenMarket Admin", "Register product" and "☰ Menu" are wider than a phone: the name wraps
    onto two lines instead of being cut, and the menu button keeps its name for a screen reader."""
    panel, driver, _, _ = shop
    try:
        go(driver, panel, "/products?lang=en")
        brand = driver.find_element(By.CSS_SELECTOR, ".site-header .brand")
        register = driver.find_element(By.CSS_SELECTOR, ".site-header a.nav-register-quick")
        toggle = driver.find_element(By.CSS_SELECTOR, "[data-nav-menu] > summary")
        assert brand.text.replace("\n", " ").endswith("OpenMarket Admin"), brand.text
        widths = driver.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", brand)
        assert widths[0] <= widths[1], (widths, brand.rect, register.rect, toggle.rect)
        assert brand.rect["x"] + brand.rect["width"] <= register.rect["x"]
        assert register.rect["x"] + register.rect["width"] <= toggle.rect["x"]
        assert toggle.rect["x"] + toggle.rect["width"] <= 390
        assert "Menu" in toggle.get_attribute("textContent")
        assert toggle.rect["width"] >= 43.5 and toggle.rect["height"] >= 43.5
        assert driver.find_element(By.CSS_SELECTOR, ".site-header").rect["height"] <= 70
    finally:
        go(driver, panel, "/products?lang=ko")
