"""Accessibility: axe-core on every page in both themes and both languages (0 serious or critical
violations), a focus ring of at least 3:1 on every control, and no overflow at 320 px."""
import re

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import IDENTIFIER, SECRET, axe_source, png, set_theme

THEMES = ["light", "dark"]
LANGUAGES = ["en", "ko"]


@pytest.fixture(scope="module")
def axe():
    return axe_source()


@pytest.fixture(scope="module")
def catalog(panel):
    """Products with and without discounts, sold out, several images: every state a page shows."""
    first = panel.register("접근성 테스트 상품", price=12000, discounted=2000, stock=0,
                           images=[("1.png", png(40, 40, seed=1)), ("2.png", png(40, 40, seed=2))])
    panel.register("Accessible chair", price=5000, stock=7)
    return first


def pages(panel, product_id):
    return [
        ("list", "/products?view=list"),
        ("grid", "/products?view=grid"),
        ("search", "/products?q=zzzz-nothing"),
        ("detail", f"/products/{product_id}"),
        ("register", "/products/new"),
        ("edit", f"/products/{product_id}/edit"),
        ("duplicate (kept images)", f"/products/{product_id}/duplicate"),
        ("delete", f"/products/{product_id}/delete"),
        ("not found", "/no-such-page"),
    ]


def serious_violations(driver, axe):
    driver.execute_script(axe)
    violations = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations), (e) => done([{id: 'axe-error', impact: 'critical', description: String(e), nodes: []}]));")
    return [v for v in violations if v.get("impact") in ("serious", "critical")]


def describe(violations):
    return "; ".join(f"{v['id']}: {v['description']} at {[n.get('target') for n in v['nodes'][:3]]}" for v in violations)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_serious_violations(panel, browser, axe, catalog, theme, language):
    set_theme(browser, theme)
    browser.get(f"{panel.url}/products?lang={language}")
    found = {}
    for name, path in pages(panel, catalog["id"]):
        browser.get(panel.url + path)
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
        violations = serious_violations(browser, axe)
        if violations:
            found[name] = describe(violations)
    # States that only appear after an action: client-side errors, the shortcuts dialog.
    browser.get(panel.url + "/products/new")
    browser.find_element(By.CSS_SELECTOR, "form[data-upload-form] button[type=submit]:not([name])").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-error-summary]"))
    if violations := serious_violations(browser, axe):
        found["register with errors"] = describe(violations)
    # Kept images as a browser without JS shows them: position menus instead of ←/→ buttons.
    browser.get(f"{panel.url}/products/{catalog['id']}/duplicate")
    browser.execute_script("document.querySelectorAll('[data-staged-position]').forEach((l) => { l.hidden = false; });"
                           "document.querySelectorAll('[data-staged-move]').forEach((b) => { b.hidden = true; });")
    if violations := serious_violations(browser, axe):
        found["kept images without JS"] = describe(violations)
    browser.get(panel.url + "/products")
    browser.find_element(By.TAG_NAME, "body").send_keys("?")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open]"))
    if violations := serious_violations(browser, axe):
        found["shortcuts dialog"] = describe(violations)
    assert not found, found


def test_axe_on_the_conflict_page(panel, browser, axe, catalog):
    product = panel.register("Conflict page check")
    browser.get(f"{panel.url}/products/{product['id']}/edit?lang=ko")
    stock = browser.find_element(By.NAME, "stock")
    stock.clear()
    stock.send_keys("5")
    answer = requests.patch(f"{panel.api}/api/products/{product['id']}", json={"name": "다른 사람이 바꾼 이름", "secret": SECRET},
                            headers={"identifier": IDENTIFIER}, timeout=10)
    assert answer.status_code == 200
    browser.find_element(By.CSS_SELECTOR, "form[data-product-form] button[type=submit]:not([name])").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-conflict]"))
    for theme in THEMES:
        set_theme(browser, theme)
        violations = serious_violations(browser, axe)
        assert not violations, describe(violations)


def luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted([luminance(a), luminance(b)], reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(text):
    numbers = [float(n) for n in re.findall(r"[\d.]+", text)]
    return tuple(int(n) for n in numbers[:3])


RING = """
const element = arguments[0], ringOwner = arguments[1];
const style = getComputedStyle(ringOwner);
let node = ringOwner.parentElement, background = 'rgb(255, 255, 255)';
while (node) {
  const color = getComputedStyle(node).backgroundColor;
  if (color && color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') { background = color; break; }
  node = node.parentElement;
}
return { focusVisible: element.matches(':focus-visible'), style: style.outlineStyle,
         width: parseFloat(style.outlineWidth), color: style.outlineColor, background };
"""


def keyboard_focus(browser, element):
    """Focus as a keyboard user would get it, so :focus-visible applies."""
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.SHIFT)
    browser.execute_script("arguments[0].focus()", element)


def assert_ring(browser, element, owner=None):
    ring = browser.execute_script(RING, element, owner or element)
    assert ring["focusVisible"], ring
    assert ring["style"] not in ("none", "hidden") and ring["width"] >= 2, ring
    ratio = contrast(rgb(ring["color"]), rgb(ring["background"]))
    assert ratio >= 3, (ring, ratio)


@pytest.mark.parametrize("theme", THEMES)
def test_focus_ring_is_visible_with_enough_contrast(panel, browser, catalog, theme):
    set_theme(browser, theme)
    browser.get(panel.url + "/products?view=grid&lang=en")
    card_link = browser.find_element(By.CSS_SELECTOR, ".products--grid [data-product-id] a")
    keyboard_focus(browser, card_link)
    # The card clips its link (overflow:hidden), so the ring is drawn by the card around it.
    assert_ring(browser, card_link, card_link.find_element(By.XPATH, "./ancestor::li[@data-product-id]"))
    for toggle in browser.find_elements(By.CSS_SELECTOR, "a[data-view-toggle]"):
        keyboard_focus(browser, toggle)
        assert_ring(browser, toggle)
    browser.get(f"{panel.url}/products/{catalog['id']}")
    for link in browser.find_elements(By.CSS_SELECTOR, "[data-gallery] a")[:3]:
        keyboard_focus(browser, link)
        assert_ring(browser, link)


def test_no_horizontal_overflow_at_320_px(panel, browser, catalog):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        for language in LANGUAGES:
            browser.get(f"{panel.url}/products?lang={language}")
            for name, path in pages(panel, catalog["id"]):
                browser.get(panel.url + path)
                width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
                assert width[0] <= width[1], (language, name, width)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
