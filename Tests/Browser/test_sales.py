"""Scheduled discounts in a real browser: a sale of a few seconds set on the detail page starts and
ends on the sandbox by itself; the bulk action schedules several products at once, as one run whose
sales are cancelled together."""
import datetime
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import Panel, click_to_navigate

SEOUL = datetime.timezone(datetime.timedelta(hours=9))


@pytest.fixture(scope="module")
def seoul_panel():
    with tempfile.TemporaryDirectory(prefix="om-browser-sales-") as data_dir:
        running = Panel(data_dir, extra_args=["--time-zone", "Asia/Seoul"])
        yield running
        running.stop()


def local(seconds_from_now):
    moment = datetime.datetime.now(SEOUL) + datetime.timedelta(seconds=seconds_from_now)
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def fill(driver, name, value, scope="body"):
    field = driver.find_element(By.CSS_SELECTOR, f'{scope} input[name="{name}"]')
    # datetime-local inputs take their value most reliably from script, as a date picker would set it.
    driver.execute_script("arguments[0].value = arguments[1]", field, value)


def sale_state(driver, url):
    driver.get(url + "/sales")
    rows = driver.find_elements(By.CSS_SELECTOR, "[data-sale]")
    return [row.get_attribute("data-state") for row in rows]


def test_a_sale_of_a_few_seconds_starts_and_ends_by_itself(seoul_panel, browser):
    product = seoul_panel.register("Browser sale scarf", price=20000)
    browser.get(f"{seoul_panel.url}/products/{product['id']}")
    section = browser.find_element(By.CSS_SELECTOR, "[data-product-sales]")
    assert "Asia/Seoul" in section.text
    assert section.find_element(By.CSS_SELECTOR, 'input[name="sale_start"]').get_attribute("step") == "1"
    fill(browser, "sale_discount", "25%", "[data-sale-form]")
    fill(browser, "sale_start", local(2), "[data-sale-form]")
    fill(browser, "sale_end", local(5), "[data-sale-form]")
    browser.find_element(By.CSS_SELECTOR, "[data-sale-form] button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-product-sales] [data-state="scheduled"]'))
    WebDriverWait(browser, 30, poll_frequency=0.3).until(
        lambda d: seoul_panel.product(product["id"]).json()["discounted_price"] == 5000)
    WebDriverWait(browser, 30, poll_frequency=0.3).until(lambda d: sale_state(d, seoul_panel.url)[:1] == ["ended"])
    assert seoul_panel.product(product["id"]).json()["discounted_price"] == 0
    browser.get(f"{seoul_panel.url}/products/{product['id']}")
    history = browser.find_element(By.CSS_SELECTOR, "[data-history]")
    assert history.find_elements(By.CSS_SELECTOR, '[data-action="sale-start"]')
    assert history.find_elements(By.CSS_SELECTOR, '[data-action="sale-end"]')


def test_a_bad_sale_keeps_the_values_and_names_the_field(seoul_panel, browser):
    product = seoul_panel.register("Browser sale mug", price=10000)
    browser.get(f"{seoul_panel.url}/products/{product['id']}")
    fill(browser, "sale_discount", "10,001", "[data-sale-form]")
    fill(browser, "sale_start", local(60), "[data-sale-form]")
    fill(browser, "sale_end", local(30), "[data-sale-form]")
    browser.find_element(By.CSS_SELECTOR, "[data-sale-form] button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sale_discount-error"))
    assert browser.find_element(By.CSS_SELECTOR, "#sale_end-error").is_displayed()
    assert browser.find_element(By.ID, "sale_discount").get_attribute("value") == "10,001"
    assert "sale_discount-error" in browser.find_element(By.ID, "sale_discount").get_attribute("aria-describedby")


def test_the_bulk_action_schedules_the_ticked_products(seoul_panel, browser):
    made = [seoul_panel.register(f"Browser bulk sale {n}", price=30000) for n in range(2)]
    browser.get(seoul_panel.url + "/products?sort=oldest&per_page=100")
    click_to_navigate(browser, browser.find_element(By.CSS_SELECTOR, "[data-refresh]"))
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-bulk]"))
    for product in made:
        browser.find_element(By.CSS_SELECTOR, f'input[name="ids"][value="{product["id"]}"]').click()
    Select(browser.find_element(By.CSS_SELECTOR, "select[name=action]")).select_by_value("schedule-discount")
    fill(browser, "sale_discount", "10%", "form[data-bulk]")
    fill(browser, "sale_start", local(3600), "form[data-bulk]")
    fill(browser, "sale_end", local(7200), "form[data-bulk]")
    browser.find_element(By.CSS_SELECTOR, "form[data-bulk] button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-bulk-result]"))
    outcomes = {row.get_attribute("data-bulk-result"): row.get_attribute("data-outcome")
                for row in browser.find_elements(By.CSS_SELECTOR, "[data-bulk-result]")}
    assert outcomes == {str(p["id"]): "done" for p in made}
    browser.get(seoul_panel.url + "/products?sort=oldest&per_page=100")
    for product in made:
        item = browser.find_element(By.CSS_SELECTOR, f'[data-product-id="{product["id"]}"]')
        assert item.find_elements(By.CSS_SELECTOR, '[data-sale-badge="scheduled"]')


def test_a_bulk_booking_is_one_run_whose_sales_are_cancelled_together(seoul_panel, korean_browser):
    browser = korean_browser
    made = [seoul_panel.register(f"Browser run sale {n}", price=30000) for n in range(3)]
    browser.get(seoul_panel.url + "/products?sort=oldest&per_page=100")
    click_to_navigate(browser, browser.find_element(By.CSS_SELECTOR, "[data-refresh]"))
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-bulk]"))
    for product in made:
        browser.find_element(By.CSS_SELECTOR, f'input[name="ids"][value="{product["id"]}"]').click()
    Select(browser.find_element(By.CSS_SELECTOR, "select[name=action]")).select_by_value("schedule-discount")
    start = browser.find_element(By.CSS_SELECTOR, 'form[data-bulk] input[name="sale_start"]')
    assert start.get_attribute("step") == "1"
    fill(browser, "sale_discount", "10%", "form[data-bulk]")
    fill(browser, "sale_start", local(3600)[:16], "form[data-bulk]")
    fill(browser, "sale_end", local(7200)[:16], "form[data-bulk]")
    browser.find_element(By.CSS_SELECTOR, "form[data-bulk] button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-bulk-result]"))

    # From the result to the run's sales on /sales.
    browser.find_element(By.CSS_SELECTOR, "[data-sale-run-link]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-cancel-run]"))
    assert [row.get_attribute("data-state") for row in browser.find_elements(By.CSS_SELECTOR, "[data-sale]")] == ["scheduled"] * 3
    form = browser.find_element(By.CSS_SELECTOR, "[data-cancel-run]")
    assert form.get_attribute("data-open") == "3"
    button = form.find_element(By.CSS_SELECTOR, "button")
    assert button.text == "이 예약 3건 모두 취소"
    # On a phone the button is a whole thumb's target.
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    assert button.size["height"] >= 43.5 and button.size["width"] >= 43.5
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # The script asks first, naming how many; saying no sends nothing.
    button.click()
    alert = WebDriverWait(browser, 10).until(expected_conditions.alert_is_present())
    assert "3건" in alert.text
    alert.dismiss()
    assert [row.get_attribute("data-state") for row in browser.find_elements(By.CSS_SELECTOR, "[data-sale]")] == ["scheduled"] * 3
    browser.find_element(By.CSS_SELECTOR, "[data-cancel-run] button").click()
    WebDriverWait(browser, 10).until(expected_conditions.alert_is_present()).accept()
    status = WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[role="status"]'))
    assert "3건 중 3건을 취소했습니다" in status[0].text
    assert [row.get_attribute("data-state") for row in browser.find_elements(By.CSS_SELECTOR, "[data-sale]")] == ["cancelled"] * 3
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-cancel-run]")

    # One run on /activity, in Korean, and the cancel recorded.
    browser.get(seoul_panel.url + "/activity")
    runs = [run for run in browser.find_elements(By.CSS_SELECTOR, "[data-bulk-run]")
            if "Browser run sale" in run.text]
    assert len(runs) == 1
    assert len(runs[0].find_elements(By.CSS_SELECTOR, '[data-action="bulk"]')) == 3
    assert "즉시할인 일괄 예약" in runs[0].text and "schedule-discount" not in runs[0].text
    assert browser.find_elements(By.CSS_SELECTOR, '[data-action="sale-run-cancelled"]')
