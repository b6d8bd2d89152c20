"""Register and delete with JavaScript turned off: plain HTML forms must be enough."""
import re
import tempfile

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import SECRET, png, write_file


def test_register_and_delete_without_javascript(panel, browser_without_js):
    browser = browser_without_js
    with tempfile.TemporaryDirectory() as folder:
        photo = write_file(folder, "plain.png", png(50, 50, seed=7))
        browser.get(panel.url + "/products/new")
        form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
        form.find_element(By.NAME, "name").send_keys("No-JS kettle")
        form.find_element(By.NAME, "description").send_keys("Registered with scripts turned off.")
        form.find_element(By.NAME, "price").send_keys("9900")
        form.find_element(By.NAME, "images").send_keys(photo)
        form.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
        WebDriverWait(browser, 30).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))

    product_id = int(re.search(r"/products/(\d+)", browser.current_url).group(1))
    assert "No-JS kettle" in browser.page_source
    assert panel.product(product_id).status_code == 200

    browser.get(f"{panel.url}/products/{product_id}/delete")
    form = browser.find_element(By.NAME, "password").find_element(By.XPATH, "./ancestor::form")
    form.find_element(By.NAME, "password").send_keys("wrong-password")
    form.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[role="alert"]'))
    assert panel.product(product_id).status_code == 200

    form = browser.find_element(By.NAME, "password").find_element(By.XPATH, "./ancestor::form")
    form.find_element(By.NAME, "password").send_keys(SECRET)
    form.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.current_url.split("?")[0].endswith("/products"))
    assert panel.product(product_id).status_code == 404


def test_enter_in_a_form_with_kept_images_saves_in_the_chosen_order(panel, browser_without_js):
    """Enter in a text field presses the form's first submit button: it must be Save, so the kept
    images are ordered with position menus (no JS), not with buttons that submit."""
    browser = browser_without_js
    small, large = png(30, 30, seed=1), png(44, 44, seed=2)
    original = panel.register("Enter-key teapot", images=[("small.png", small), ("large.png", large)])
    browser.get(f"{panel.url}/products/{original['id']}/duplicate")
    items = browser.find_elements(By.CSS_SELECTOR, "[data-staged-image]")
    assert len(items) == 2
    assert not [b for b in browser.find_elements(By.CSS_SELECTOR, "[data-staged-image] button") if b.is_displayed()]
    Select(items[1].find_element(By.TAG_NAME, "select")).select_by_value("1")

    name = browser.find_element(By.NAME, "name")
    name.clear()
    name.send_keys("Enter-key teapot, renamed" + Keys.ENTER)
    WebDriverWait(browser, 30).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0])
                                     and f"/products/{original['id']}" not in d.current_url)
    assert "Enter-key teapot, renamed" in browser.find_element(By.TAG_NAME, "h1").text
    copy = panel.product(int(re.search(r"/products/(\d+)", browser.current_url).group(1))).json()
    assert copy["name"] == "Enter-key teapot, renamed"
    sizes = [len(requests.get(image["url"], timeout=10).content) for image in copy["images"]]
    assert sizes == [len(large), len(small)]
