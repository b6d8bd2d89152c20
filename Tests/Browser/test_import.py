"""Spreadsheet import in a real browser, with and without JavaScript: choose a CSV and its photos,
see the preview (nothing sent), apply, and read each row's outcome."""
import os
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import png, write_file


def wait(driver, seconds=60):
    return WebDriverWait(driver, seconds)


def rows(driver, hook):
    return {int(row.get_attribute(hook)): row.get_attribute("data-outcome")
            for row in driver.find_elements(By.CSS_SELECTOR, f"[{hook}]")}


def run_import(panel, driver, tag):
    existing = panel.register(f"Import browser {tag} old", stock=1)
    with tempfile.TemporaryDirectory(prefix="om-import-") as folder:
        # Korean Excel's "CSV": CP949, with a multi-line description and a grouped price.
        csv = ("id,name,description,price,currency,stock,images\r\n"
               f"{existing['id']},,,\"13,000\",KRW,7,\r\n"
               f",가져온 상품 {tag},\"첫 줄\r\n둘째 줄까지 있는 설명입니다.\",\"9,900\",KRW,3,photo-{tag}.png\r\n")
        csv_path = write_file(folder, f"products-{tag}.csv", csv.encode("cp949"))
        photo_path = write_file(folder, f"photo-{tag}.png", png(32, 24, seed=5))
        driver.get(panel.url + "/products/import")
        driver.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(csv_path)
        driver.find_element(By.CSS_SELECTOR, "input[name=images]").send_keys(photo_path)
        driver.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))
    assert rows(driver, "data-import-row") == {2: "update", 3: "create"}
    # The preview sent nothing.
    assert panel.product(existing["id"]).json()["price"] == existing["price"]
    driver.find_element(By.CSS_SELECTOR, "form[data-import-apply] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-result]"))
    assert rows(driver, "data-import-result") == {2: "done", 3: "done"}
    assert panel.product(existing["id"]).json()["price"] == 13000
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "[data-import-result] a")]
    assert any(link.endswith(f"/products/{existing['id']}") for link in links)
    assert len(links) == 2


def test_import_with_javascript(panel, browser):
    run_import(panel, browser, "js")
    # The apply form shows a progress bar while it runs (hidden until submitted).
    browser.get(panel.url + "/products/import")
    assert browser.find_elements(By.CSS_SELECTOR, "form[data-import-form]")


def test_import_without_javascript(panel, browser_without_js):
    run_import(panel, browser_without_js, "nojs")
