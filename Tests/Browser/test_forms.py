"""Forms that never lose work: conflicts, the unsaved prompt, checks before upload,
pixel bombs, keyboard shortcuts and visible focus."""
import re
import struct
import tempfile

import requests
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import IDENTIFIER, SECRET, png, write_file


def wait(driver, seconds=20):
    return WebDriverWait(driver, seconds)


def own_submit(form):
    form.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name])").click()


def pixel_bomb():
    """A 33-byte PNG header that declares 30000×30000 pixels (3.6 GB once decoded)."""
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0) + b"\0\0\0\0"


def rename_on_the_api(panel, product_id, name):
    answer = requests.patch(f"{panel.api}/api/products/{product_id}", json={"name": name, "secret": SECRET},
                            headers={"identifier": IDENTIFIER}, timeout=10)
    assert answer.status_code == 200, answer.text


def test_conflict_ends_with_your_price_and_their_name(panel, browser):
    product = panel.register("Conflict kettle", price=12000)
    browser.get(f"{panel.url}/products/{product['id']}/edit")
    price = browser.find_element(By.NAME, "price")
    price.clear()
    price.send_keys("9900")
    rename_on_the_api(panel, product["id"], "Colleague's kettle")        # meanwhile, through the API
    own_submit(browser.find_element(By.CSS_SELECTOR, "form[data-product-form]"))
    conflict = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-conflict]"))
    assert conflict.get_attribute("role") == "alert"
    assert browser.switch_to.active_element == conflict
    headers = [th.text for th in conflict.find_elements(By.CSS_SELECTOR, "thead th")]
    assert headers == ["Field", "When you opened it", "Now on the store", "Yours"]
    row = conflict.find_element(By.CSS_SELECTOR, "tbody tr").text
    assert "Conflict kettle" in row and "Colleague's kettle" in row
    assert browser.find_element(By.NAME, "price").get_attribute("value") == "9900"
    own_submit(browser.find_element(By.CSS_SELECTOR, "form[data-product-form]"))
    wait(browser).until(lambda d: re.search(r"/products/\d+$", d.current_url))
    now = panel.product(product["id"]).json()
    assert now["name"] == "Colleague's kettle"
    assert now["price"] == 9900


def test_unsaved_changes_ask_before_leaving_but_not_on_submit(panel, browser):
    product = panel.register("Unsaved lamp")
    browser.get(f"{panel.url}/products/{product['id']}/edit")
    stock = browser.find_element(By.NAME, "stock")
    stock.clear()
    stock.send_keys("42")
    browser.find_element(By.CSS_SELECTOR, "nav a[href='/products']").click()
    alert = wait(browser).until(lambda d: d.switch_to.alert)
    assert "unsaved" in alert.text.lower()
    alert.dismiss()
    assert browser.current_url.endswith(f"/products/{product['id']}/edit")
    assert browser.find_element(By.NAME, "stock").get_attribute("value") == "42"
    # Submitting does not ask.
    own_submit(browser.find_element(By.CSS_SELECTOR, "form[data-product-form]"))
    wait(browser).until(lambda d: re.search(r"/products/\d+$", d.current_url))
    try:
        browser.switch_to.alert
        raise AssertionError("submitting asked about unsaved changes")
    except NoAlertPresentException:
        pass
    assert panel.product(product["id"]).json()["stock"] == 42

    # The register form asks too (a typed name), and an untouched form does not.
    browser.get(panel.url + "/products/new")
    browser.find_element(By.CSS_SELECTOR, "nav a[href='/products']").click()
    wait(browser).until(lambda d: d.current_url.endswith("/products"))
    browser.get(panel.url + "/products/new")
    browser.find_element(By.NAME, "name").send_keys("Half-typed")
    browser.find_element(By.CSS_SELECTOR, "nav a[href='/products']").click()
    alert = wait(browser).until(lambda d: d.switch_to.alert)
    alert.accept()
    wait(browser).until(lambda d: d.current_url.endswith("/products"))


def test_client_checks_run_before_any_image_work_or_request(panel, browser):
    with tempfile.TemporaryDirectory() as folder:
        big = write_file(folder, "big.png", png(420, 420, seed=9, noisy=True))
        browser.get(panel.url + "/products/new")
        browser.execute_script("""
            window.__sent = 0;
            const send = XMLHttpRequest.prototype.send;
            XMLHttpRequest.prototype.send = function () { window.__sent += 1; return send.apply(this, arguments); };
            window.__busy = [];
            const button = document.querySelector("form[data-upload-form] button[type=submit]:not([name])");
            new MutationObserver(() => window.__busy.push([button.getAttribute("aria-busy"), button.disabled]))
              .observe(button, { attributes: true });
        """)
        form = browser.find_element(By.CSS_SELECTOR, "form[data-upload-form]")
        form.find_element(By.NAME, "name").send_keys("Checked chair")
        form.find_element(By.NAME, "description").send_keys("Discount above the price.")
        form.find_element(By.NAME, "price").send_keys("10000")
        form.find_element(By.NAME, "discounted_price").send_keys("20000")
        form.find_element(By.NAME, "images").send_keys(big)
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-image-list] li"))
        own_submit(form)
        error = wait(browser).until(lambda d: d.find_element(By.ID, "discounted_price-error"))
        assert error.text.endswith("The discount cannot be more than the price (₩10,000).")
        assert "discounted_price-error" in browser.find_element(By.NAME, "discounted_price").get_attribute("aria-describedby")
        assert browser.execute_script("return window.__sent") == 0
        summary = browser.find_element(By.CSS_SELECTOR, "[data-error-summary]")
        assert browser.switch_to.active_element == summary
        # Following the error link selects the field's content: typing replaces it.
        summary.find_element(By.CSS_SELECTOR, "a[href='#discounted_price']").click()
        browser.switch_to.active_element.send_keys("1000")
        assert browser.find_element(By.NAME, "discounted_price").get_attribute("value") == "1000"
        # Now it goes: busy (disabled, aria-busy) while the photo is shrunk, then uploaded.
        own_submit(browser.find_element(By.CSS_SELECTOR, "form[data-upload-form]"))
        wait(browser, 40).until(lambda d: re.search(r"/products/\d+$", d.current_url))
        busy = browser.execute_script("return window.__busy")
    assert ["true", True] in busy


def test_pixel_bomb_is_refused_in_the_browser(panel, browser):
    with tempfile.TemporaryDirectory() as folder:
        bomb = write_file(folder, "bomb.png", pixel_bomb())
        browser.get(panel.url + "/products/new")
        browser.find_element(By.NAME, "images").send_keys(bomb)
        message = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-picker-message]"))
        assert "“bomb.png” is 30,000×30,000 pixels" in message.text
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-image-list] li")


def test_pixel_bomb_is_refused_without_javascript(panel, browser_without_js):
    browser = browser_without_js
    with tempfile.TemporaryDirectory() as folder:
        bomb = write_file(folder, "bomb.png", pixel_bomb())
        browser.get(panel.url + "/products/new")
        form = browser.find_element(By.CSS_SELECTOR, "form[data-upload-form]")
        form.find_element(By.NAME, "name").send_keys("Bomb")
        form.find_element(By.NAME, "description").send_keys("A file that declares a huge picture.")
        form.find_element(By.NAME, "price").send_keys("1000")
        form.find_element(By.NAME, "images").send_keys(bomb)
        own_submit(form)
        error = wait(browser).until(lambda d: d.find_element(By.ID, "images-error"))
        assert "“bomb.png” is 30,000×30,000 pixels" in error.text
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-staged-images]")


def test_keyboard_shortcuts(panel, browser):
    panel.register("Shortcut one")
    panel.register("Shortcut two")
    browser.get(panel.url + "/products?view=list")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("?")
    dialog = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog[data-shortcuts-dialog][open]"))
    assert "/" in dialog.text and "j" in dialog.text
    dialog.find_element(By.TAG_NAME, "button").click()
    body.send_keys("g")
    wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "main").get_attribute("data-view") == "grid")
    browser.find_element(By.TAG_NAME, "body").send_keys("l")
    wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "main").get_attribute("data-view") == "list")
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    first = browser.find_elements(By.CSS_SELECTOR, "[data-product-id] a")[0]
    assert browser.switch_to.active_element == first
    browser.switch_to.active_element.send_keys("j")
    second = browser.find_elements(By.CSS_SELECTOR, "[data-product-id] a")[1]
    assert browser.switch_to.active_element == second
    browser.switch_to.active_element.send_keys("k")
    assert browser.switch_to.active_element == first
    browser.switch_to.active_element.send_keys("/")
    search = browser.find_element(By.NAME, "q")
    assert browser.switch_to.active_element == search
    before = browser.current_url
    search.send_keys("n")                       # typing: no shortcut
    assert browser.current_url == before
    assert search.get_attribute("value") == "n"
    search.send_keys(Keys.ESCAPE)
    browser.find_element(By.TAG_NAME, "h1").click()
    browser.find_element(By.TAG_NAME, "body").send_keys("n")
    wait(browser).until(lambda d: d.current_url.endswith("/products/new"))
