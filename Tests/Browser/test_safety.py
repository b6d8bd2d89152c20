"""Issue 24 in a real browser without JavaScript: a deleted product survives `kill -9` in the
trash and comes back with byte-equal photos; a draft is saved, reopened and registered."""
import re
import signal
import tempfile

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SECRET, Panel, png, write_file


def image_bytes(product):
    return [requests.get(image["url"], timeout=10).content for image in product["images"]]


def submit(form, selector="button[type=submit]"):
    form.find_element(By.CSS_SELECTOR, selector).click()


def test_trash_survives_kill_9_and_restores_byte_equal_photos(browser_without_js):
    browser = browser_without_js
    with tempfile.TemporaryDirectory(prefix="om-browser-safety-") as data_dir:
        first = Panel(data_dir)
        try:
            made = first.register("Kill nine kettle", images=[("a.png", png(40, 40, seed=3)), ("b.png", png(30, 30, seed=4))])
            product_id = made["id"]
            before = image_bytes(first.product(product_id).json())
            assert len(before) == 2

            browser.get(f"{first.url}/products/{product_id}/delete")
            form = browser.find_element(By.NAME, "password").find_element(By.XPATH, "./ancestor::form")
            form.find_element(By.NAME, "password").send_keys(SECRET)
            submit(form)
            WebDriverWait(browser, 30).until(lambda d: d.current_url.split("?")[0].endswith("/products"))
            assert first.product(product_id).status_code == 404
            browser.get(first.url + "/trash")
            assert browser.find_elements(By.CSS_SELECTOR, f'[data-trash-item="{product_id}"]')
        finally:
            first.process.send_signal(signal.SIGKILL)
            first.process.wait(timeout=10)
            first.log.close()

        second = Panel(data_dir)
        try:
            browser.get(second.url + "/trash")
            item = browser.find_element(By.CSS_SELECTOR, f'[data-trash-item="{product_id}"]')
            assert "Kill nine kettle" in item.text
            submit(item.find_element(By.TAG_NAME, "form"))
            WebDriverWait(browser, 30).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))
            new_id = int(re.search(r"/products/(\d+)", browser.current_url).group(1))
            assert new_id != product_id
            restored = second.product(new_id).json()
            assert restored["name"] == "Kill nine kettle"
            assert image_bytes(restored) == before
            browser.get(second.url + "/trash")
            assert not browser.find_elements(By.CSS_SELECTOR, f'[data-trash-item="{product_id}"]')
        finally:
            second.stop()


def test_draft_saved_reopened_and_registered_without_javascript(panel, browser_without_js):
    browser = browser_without_js
    with tempfile.TemporaryDirectory() as folder:
        photo = write_file(folder, "draft.png", png(44, 44, seed=11))
        browser.get(panel.url + "/products/new")
        form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
        form.find_element(By.NAME, "name").send_keys("Drafted teapot")
        form.find_element(By.NAME, "images").send_keys(photo)
        submit(form, 'button[name="draft"]')
        WebDriverWait(browser, 30).until(lambda d: d.current_url.split("?")[0].endswith("/drafts"))
    drafts = browser.find_elements(By.CSS_SELECTOR, "[data-draft]")
    assert len(drafts) == 1 and "Drafted teapot" in drafts[0].text
    draft_id = drafts[0].get_attribute("data-draft")

    browser.get(f"{panel.url}/drafts/{draft_id}")
    form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
    assert form.find_element(By.NAME, "name").get_attribute("value") == "Drafted teapot"
    assert form.find_elements(By.CSS_SELECTOR, "[data-staged-image]")
    form.find_element(By.NAME, "description").send_keys("Finished from a draft, without scripts.")
    form.find_element(By.NAME, "price").send_keys("8800")
    submit(form, "button[type=submit]:not([name])")
    WebDriverWait(browser, 30).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))
    product_id = int(re.search(r"/products/(\d+)", browser.current_url).group(1))
    assert panel.product(product_id).json()["name"] == "Drafted teapot"
    browser.get(panel.url + "/drafts")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-draft]")


def test_draft_with_javascript_skips_the_register_rules(panel, browser):
    """The upload script checks every rule before sending; a draft is half-finished on purpose."""
    browser.get(panel.url + "/products/new")
    form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
    form.find_element(By.NAME, "name").send_keys("Scripted draft")
    submit(form, 'button[name="draft"]')
    WebDriverWait(browser, 30).until(lambda d: d.current_url.split("?")[0].endswith("/drafts"))
    assert "Scripted draft" in browser.find_element(By.CSS_SELECTOR, "[data-draft]").text
