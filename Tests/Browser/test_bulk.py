"""Bulk actions and duplicate in a real browser, with and without JavaScript."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import SECRET, click_to_navigate


def wait(driver, seconds=30):
    return WebDriverWait(driver, seconds)


def outcomes(driver):
    return {int(row.get_attribute("data-bulk-result")): row.get_attribute("data-outcome")
            for row in driver.find_elements(By.CSS_SELECTOR, "[data-bulk-result]")}


def open_fresh_list(driver, url):
    driver.get(url + "/products?sort=oldest&per_page=100")
    click_to_navigate(driver, driver.find_element(By.CSS_SELECTOR, "[data-refresh]"))
    wait(driver).until(lambda d: "/refresh" not in d.current_url and d.find_elements(By.CSS_SELECTOR, "form[data-bulk]"))


def tick(driver, ids):
    for product_id in ids:
        driver.find_element(By.CSS_SELECTOR, f'input[name="ids"][value="{product_id}"]').click()


def submit_bulk(driver):
    driver.find_element(By.CSS_SELECTOR, "form[data-bulk] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-bulk-result]"))


def run_set_stock_and_delete(panel, driver):
    made = [panel.register(f"Bulk browser {n}", stock=1) for n in range(3)]
    ids = [p["id"] for p in made]
    open_fresh_list(driver, panel.url)
    tick(driver, ids)
    Select(driver.find_element(By.CSS_SELECTOR, "select[name=action]")).select_by_value("set-stock")
    driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=stock]").send_keys("9")
    submit_bulk(driver)
    assert all(outcomes(driver)[i] == "done" for i in ids)
    assert all(panel.product(i).json()["stock"] == 9 for i in ids)

    open_fresh_list(driver, panel.url)
    tick(driver, ids[:2])
    Select(driver.find_element(By.CSS_SELECTOR, "select[name=action]")).select_by_value("delete")
    driver.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=password]").send_keys(SECRET)
    submit_bulk(driver)
    assert outcomes(driver) == {ids[0]: "done", ids[1]: "done"}
    assert panel.product(ids[0]).status_code == 404 and panel.product(ids[2]).status_code == 200
    return ids


def test_bulk_with_javascript(panel, browser):
    ids = run_set_stock_and_delete(panel, browser)
    # "Select all on this page" ticks every own product's box.
    open_fresh_list(browser, panel.url)
    browser.find_element(By.CSS_SELECTOR, "[data-bulk-select-all]").click()
    boxes = browser.find_elements(By.CSS_SELECTOR, 'input[name="ids"]')
    assert boxes and all(box.is_selected() for box in boxes)
    # A progress bar shows while the action runs.
    Select(browser.find_element(By.CSS_SELECTOR, "select[name=action]")).select_by_value("adjust-price")
    browser.find_element(By.CSS_SELECTOR, "form[data-bulk] input[name=amount]").send_keys("+5%")
    # (recorded in sessionStorage, which survives the navigation to the result page)
    browser.execute_script("document.querySelector('form[data-bulk]').addEventListener('submit', () => "
                           "sessionStorage.setItem('progressShown', String(!document.querySelector('[data-bulk-progress]').hidden)))")
    submit_bulk(browser)
    assert ids[2] in outcomes(browser)
    assert browser.execute_script("return sessionStorage.getItem('progressShown')") == "true"


def test_bulk_without_javascript(panel, browser_without_js):
    run_set_stock_and_delete(panel, browser_without_js)


def test_duplicate_then_register(panel, browser):
    original = panel.register("Duplicated lamp", price=23000, stock=4)
    browser.get(f"{panel.url}/products/{original['id']}")
    browser.find_element(By.CSS_SELECTOR, "[data-duplicate]").click()
    wait(browser).until(lambda d: "/duplicate" in d.current_url)
    assert browser.find_element(By.NAME, "name").get_attribute("value") == "Duplicated lamp (copy)"
    staged = browser.find_element(By.CSS_SELECTOR, "[data-staged-images]")
    assert staged.find_elements(By.TAG_NAME, "img")
    browser.find_element(By.CSS_SELECTOR, "form.product-form .form-actions button[type=submit]").click()
    wait(browser).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0])
                        and f"/products/{original['id']}" not in d.current_url)
    new_id = int(re.search(r"/products/(\d+)", browser.current_url).group(1))
    copy = panel.product(new_id).json()
    assert copy["name"] == "Duplicated lamp (copy)" and copy["price"] == 23000 and len(copy["images"]) == 1


def test_duplicate_without_javascript(panel, browser_without_js):
    driver = browser_without_js
    original = panel.register("No-JS duplicate", price=5000)
    driver.get(f"{panel.url}/products/{original['id']}/duplicate")
    assert driver.find_elements(By.CSS_SELECTOR, "[data-staged-images] img")
    driver.find_element(By.CSS_SELECTOR, "form.product-form .form-actions button[type=submit]").click()
    wait(driver).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0])
                       and f"/products/{original['id']}" not in d.current_url)
