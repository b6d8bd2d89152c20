"""The catalog's views in a real browser: sort and filter controls, keeping your place through
detail → edit → save and delete, and the new-products notice appearing without a reload."""
import re
from urllib.parse import urlsplit

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import SECRET, click_to_navigate


def wait(driver, seconds=20):
    return WebDriverWait(driver, seconds)


def shown_ids(driver):
    return [int(e.get_attribute("data-product-id")) for e in driver.find_elements(By.CSS_SELECTOR, "[data-product-id]")]


def path_of(url):
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def apply_filters(driver):
    """Without JS the apply button applies the filters; with JS each one applied as it changed,
    so there is only the list's update to wait for."""
    button = driver.find_element(By.CSS_SELECTOR, "form[role=search] .filters button[type=submit]")
    if button.is_displayed():
        button.click()
    else:
        wait(driver).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "main[aria-busy]"))


def choose_sold_out_cheapest_first(driver, url):
    driver.get(url + "/products")
    Select(driver.find_element(By.CSS_SELECTOR, "select[name=sort]")).select_by_value("price")
    Select(driver.find_element(By.CSS_SELECTOR, "select[name=per_page]")).select_by_value("50")
    driver.find_element(By.CSS_SELECTOR, "input[name=stock][value=sold-out]").click()
    driver.find_element(By.CSS_SELECTOR, "input[name=show][value=mine]").click()
    apply_filters(driver)
    wait(driver).until(lambda d: "stock=sold-out" in d.current_url)


def test_sort_and_filter_controls_and_keep_your_place(panel, browser):
    cheap = panel.register("Catalog cheap sold out", price=9000, discounted=6000, stock=0)   # pays 3,000
    dear = panel.register("Catalog dear sold out", price=5000, stock=0)
    panel.register("Catalog in stock", price=100, stock=2)

    choose_sold_out_cheapest_first(browser, panel.url)
    query = browser.current_url
    assert "sort=price" in query and "per_page=50" in query and "show=mine" in query
    ids = shown_ids(browser)
    assert ids.index(cheap["id"]) < ids.index(dear["id"])
    assert browser.find_element(By.CSS_SELECTOR, "[data-copy-age]").is_displayed()
    assert "match these filters" in browser.find_element(By.CSS_SELECTOR, "[data-count]").text
    list_path = path_of(browser.current_url)

    # detail → edit → save returns to the same list; the product has left this view at once.
    browser.find_element(By.CSS_SELECTOR, f'[data-product-id="{dear["id"]}"] a').click()
    wait(browser).until(lambda d: f"/products/{dear['id']}?" in d.current_url)
    assert path_of(browser.find_element(By.LINK_TEXT, "← All products").get_attribute("href")) == list_path
    browser.find_element(By.LINK_TEXT, "Edit").click()
    wait(browser).until(lambda d: "/edit" in d.current_url)
    stock = browser.find_element(By.NAME, "stock")
    stock.clear()
    stock.send_keys("7")
    browser.find_element(By.CSS_SELECTOR, "form.product-form button[type=submit]").click()
    wait(browser).until(lambda d: path_of(d.current_url) == list_path)
    assert dear["id"] not in shown_ids(browser)
    assert "Saved changes" in browser.find_element(By.CSS_SELECTOR, "[role=status]").text

    # detail → delete (the dialog) returns to the same list too.
    browser.find_element(By.CSS_SELECTOR, f'[data-product-id="{cheap["id"]}"] a').click()
    wait(browser).until(lambda d: f"/products/{cheap['id']}?" in d.current_url)
    browser.find_element(By.CSS_SELECTOR, "[data-delete-open]").click()
    password = browser.find_element(By.CSS_SELECTOR, "dialog[data-delete-dialog] input[name=password]")
    wait(browser).until(lambda d: password.is_displayed())
    password.send_keys(SECRET)
    browser.find_element(By.CSS_SELECTOR, "dialog[data-delete-dialog] button[type=submit]").click()
    wait(browser).until(lambda d: path_of(d.current_url) == list_path)
    assert cheap["id"] not in shown_ids(browser)
    assert panel.product(cheap["id"]).status_code == 404


def test_pagination_offers_neighbours_and_both_ends(panel, browser):
    for n in range(45):
        panel.register(f"Paged product {n:02d}", price=1000 + n, stock=1)
    browser.get(panel.url + "/products?sort=oldest&page=2")
    # Registered elsewhere a moment ago: the refresh button brings the copy up to date now.
    click_to_navigate(browser, browser.find_element(By.CSS_SELECTOR, "[data-refresh]"))
    wait(browser).until(lambda d: "/refresh" not in d.current_url and d.find_elements(By.CSS_SELECTOR, ".pagination"))
    assert "page=2" in browser.current_url
    numbers = [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".pagination a:not([rel])")]
    assert "1" in numbers and "3" in numbers
    last = max(int(n) for n in numbers if n.isdigit())
    browser.get(panel.url + f"/products?sort=oldest&page={last}")
    numbers = [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".pagination a:not([rel])")]
    assert "1" in numbers and str(last - 1) in numbers


def test_new_products_notice_appears_without_a_reload(panel, browser):
    panel.register("Before the notice")
    browser.get(panel.url + "/products?sort=name")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-new-products]")
    browser.execute_script("window.__sameDocument = true")
    added = panel.register("After the notice")
    notice = wait(browser, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-new-products]"))
    assert notice.get_attribute("role") == "status"
    assert browser.execute_script("return window.__sameDocument") is True   # no reload happened
    notice.find_element(By.TAG_NAME, "a").click()
    wait(browser).until(lambda d: added["id"] in shown_ids(d))
    assert shown_ids(browser)[0] == added["id"]


def test_filters_and_notice_work_without_javascript(panel, browser_without_js):
    driver = browser_without_js
    sold = panel.register("No-JS sold out", price=2000, stock=0)
    choose_sold_out_cheapest_first(driver, panel.url)
    click_to_navigate(driver, driver.find_element(By.CSS_SELECTOR, "[data-refresh]"))
    wait(driver).until(lambda d: "stock=sold-out" in d.current_url and "/refresh" not in d.current_url)
    assert sold["id"] in shown_ids(driver)
    added = panel.register("No-JS newcomer")
    driver.find_element(By.CSS_SELECTOR, "[data-refresh]").click()
    notice = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-new-products]"))
    assert notice.get_attribute("role") == "status"
    assert re.search(r"/products\?page=1", notice.find_element(By.TAG_NAME, "a").get_attribute("href"))
    assert added["id"] > sold["id"]
