"""Register and delete with JavaScript turned off: plain HTML forms must be enough."""
import re
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

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
