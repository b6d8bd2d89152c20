"""The panel on `--dialect v1` (the 2021 API, a password per product) in a real browser, with and
without JavaScript: register with a password, edit with it (replacing the images), delete with it."""
import os
import re
import subprocess
import tempfile
import time
import urllib.request

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import admin_binary, free_port, png, write_file, REPO

PASSWORD = "v1-browser-pass"


class V1Panel:
    """`openmarket-admin --dialect v1` with its embedded v1 sandbox; no vendor credentials."""

    def __init__(self, data_dir):
        self.port = free_port()
        self.sandbox_port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.api = f"http://127.0.0.1:{self.sandbox_port}"
        self.log = open(os.path.join(data_dir, "panel.log"), "w")
        self.process = subprocess.Popen(
            [admin_binary(), "--port", str(self.port), "--sandbox-port", str(self.sandbox_port),
             "--data", os.path.join(data_dir, "store"), "--dialect", "v1"],
            cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError("openmarket-admin --dialect v1 did not start; see " + self.log.name)
            time.sleep(0.2)

    def item(self, item_id):
        return requests.get(f"{self.api}/item/{item_id}", timeout=10)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        with open(self.log.name) as handle:
            assert PASSWORD not in handle.read(), "the panel's output shows a product password"


@pytest.fixture(scope="module")
def v1_panel():
    with tempfile.TemporaryDirectory(prefix="om-browser-v1-") as data_dir:
        running = V1Panel(data_dir)
        yield running
        running.stop()


def wait(browser, seconds=30):
    return WebDriverWait(browser, seconds)


def submit(form):
    """The form's own submit button (not the kept images' order buttons, which also submit)."""
    buttons = form.find_elements(By.CSS_SELECTOR, ".form-actions button[type=submit]")
    (buttons or form.find_elements(By.CSS_SELECTOR, "button[type=submit], input[type=submit]"))[0].click()


def register(v1_panel, browser, name, folder):
    photo = write_file(folder, "photo.png", png(40, 30, seed=5))
    browser.get(v1_panel.url + "/products/new")
    form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
    form.find_element(By.NAME, "name").send_keys(name)
    form.find_element(By.NAME, "description").send_keys("Registered through the v1 panel.")
    form.find_element(By.NAME, "price").send_keys("15000")
    form.find_element(By.NAME, "stock").send_keys("4")
    password = form.find_element(By.NAME, "password")
    assert password.get_attribute("type") == "password"
    password.send_keys(PASSWORD)
    form.find_element(By.NAME, "images").send_keys(photo)
    submit(form)
    wait(browser, 40).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))
    return int(re.search(r"/products/(\d+)", browser.current_url).group(1))


@pytest.mark.parametrize("javascript", [True, False])
def test_register_edit_and_delete_with_the_product_password(v1_panel, javascript, browser, browser_without_js):
    driver = browser if javascript else browser_without_js
    name = "V1 lamp " + ("js" if javascript else "nojs")
    with tempfile.TemporaryDirectory() as folder:
        item_id = register(v1_panel, driver, name, folder)
        assert driver.find_element(By.CSS_SELECTOR, '[role="status"]').text
        assert PASSWORD not in driver.page_source
        item = v1_panel.item(item_id).json()
        assert item["title"] == name and item["price"] == 15000 and len(item["images"]) == 1

        # Edit: a wrong password keeps the form and the chosen image, with the error by the field.
        driver.get(f"{v1_panel.url}/products/{item_id}/edit")
        form = driver.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
        assert not driver.find_elements(By.NAME, "thumbnail_id")
        stock = form.find_element(By.NAME, "stock")
        stock.clear()
        stock.send_keys("9")
        first = write_file(folder, "new1.png", png(36, 36, seed=1))
        second = write_file(folder, "new2.png", png(36, 36, seed=2))
        form.find_element(By.NAME, "images").send_keys(first + "\n" + second)
        form.find_element(By.NAME, "password").send_keys("not-the-password")
        submit(form)
        wait(driver).until(lambda d: d.find_elements(By.ID, "password-error"))
        described = driver.find_element(By.NAME, "password").get_attribute("aria-describedby") or ""
        assert "password-error" in described
        assert driver.find_element(By.NAME, "password").get_attribute("value") == ""
        assert driver.find_elements(By.CSS_SELECTOR, "[data-staged-images] img")
        assert driver.find_element(By.NAME, "stock").get_attribute("value") == "9"
        assert v1_panel.item(item_id).json()["stock"] == 4

        # The right password saves the change and replaces the images with the staged two; without
        # JS, by Enter in a text field (Save is the form's first submit button, kept images or not).
        form = driver.find_element(By.NAME, "password").find_element(By.XPATH, "./ancestor::form")
        form.find_element(By.NAME, "password").send_keys(PASSWORD)
        if javascript:
            submit(form)
        else:
            form.find_element(By.NAME, "name").send_keys(Keys.ENTER)
        wait(driver, 40).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))
        item = v1_panel.item(item_id).json()
        assert item["stock"] == 9 and len(item["images"]) == 2
        assert PASSWORD not in driver.page_source

        # Choosing no image keeps the current ones (the script must not ask for one).
        driver.get(f"{v1_panel.url}/products/{item_id}/edit")
        stock = driver.find_element(By.NAME, "stock")
        stock.clear()
        stock.send_keys("7")
        driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        submit(stock.find_element(By.XPATH, "./ancestor::form"))
        wait(driver, 40).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))
        item = v1_panel.item(item_id).json()
        assert item["stock"] == 7 and len(item["images"]) == 2

        # Delete with the product's password: the dialog with JS, the prompt page without.
        if javascript:
            driver.find_element(By.CSS_SELECTOR, "[data-delete-open], button[data-delete]").click()
            dialog = driver.find_element(By.CSS_SELECTOR, "dialog[data-delete-dialog]")
            wait(driver).until(lambda d: dialog.is_displayed())
            assert "Product password" in dialog.text
            dialog.find_element(By.NAME, "password").send_keys(PASSWORD)
            submit(dialog.find_element(By.TAG_NAME, "form"))
        else:
            driver.get(f"{v1_panel.url}/products/{item_id}/delete")
            assert "Product password" in driver.find_element(By.TAG_NAME, "main").text
            form = driver.find_element(By.NAME, "password").find_element(By.XPATH, "./ancestor::form")
            form.find_element(By.NAME, "password").send_keys(PASSWORD)
            submit(form)
        wait(driver, 40).until(lambda d: d.current_url.split("?")[0].endswith("/products"))
        assert v1_panel.item(item_id).status_code == 404
