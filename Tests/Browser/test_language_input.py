"""Korean as Korean and amounts as sellers type them: messages name
their field with the right particle, errors go as soon as the field is fixed, KRW is whole won in
the browser too, and the example amount follows the currency."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import png, write_file
import tempfile


def wait(driver, seconds=20):
    return WebDriverWait(driver, seconds)


def own_submit(form):
    form.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name])").click()


def summary_items(driver):
    return [item.text for item in driver.find_elements(By.CSS_SELECTOR, "[data-error-summary] li")]


def test_errors_name_their_field_and_go_once_fixed(panel, korean_browser):
    browser = korean_browser
    browser.get(panel.url + "/products/new")
    form = browser.find_element(By.CSS_SELECTOR, "form[data-upload-form]")
    own_submit(form)
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-error-summary]"))
    items = summary_items(browser)
    # Each required field by its name, its particle chosen by the name: 상품명을, 상세설명을.
    assert "상품명을 입력해 주세요." in items
    assert "상세설명을 입력해 주세요." in items
    assert not any("이 항목" in item or "(를)" in item or "(을)" in item for item in items)
    heading = browser.find_element(By.CSS_SELECTOR, "[data-error-summary] h2").text
    assert re.fullmatch(r"입력 내용을 확인해 주세요\(\d+건\)", heading), heading
    count = len(items)

    # Fixing the name removes its message at once (by the field and in the summary).
    form.find_element(By.NAME, "name").send_keys("바로 고친 텀블러")
    wait(browser).until(lambda d: not d.find_elements(By.ID, "name-error"))
    assert browser.find_element(By.NAME, "name").get_attribute("aria-invalid") is None
    assert len(summary_items(browser)) == count - 1
    assert browser.find_element(By.CSS_SELECTOR, "[data-error-summary] h2").text == f"입력 내용을 확인해 주세요({count - 1}건)"
    # Other errors stay until their field is fixed.
    assert browser.find_elements(By.ID, "description-error")


def test_won_are_whole_in_the_browser_and_grouping_is_fine(panel, korean_browser):
    browser = korean_browser
    with tempfile.TemporaryDirectory() as folder:
        photo = write_file(folder, "cup.png", png(40, 40, seed=3))
        # The currency field is shown once the store sells in dollars (a KRW-only store has no use for it).
        panel.register("Dollar mug", price=12.5, currency="USD")
        browser.get(panel.url + "/products?sort=price")
        browser.get(panel.url + "/products/new")
        browser.execute_script("""
            window.__sent = 0;
            const send = XMLHttpRequest.prototype.send;
            XMLHttpRequest.prototype.send = function () { window.__sent += 1; return send.apply(this, arguments); };
        """)
        form = browser.find_element(By.CSS_SELECTOR, "form[data-upload-form]")
        price = form.find_element(By.NAME, "price")
        assert price.get_attribute("placeholder") == "12,000"
        form.find_element(By.NAME, "name").send_keys("쉼표 가격 머그컵")
        form.find_element(By.NAME, "description").send_keys("가격에 쉼표를 넣어 입력한 상품입니다.")
        price.send_keys("12000.5")
        form.find_element(By.NAME, "images").send_keys(photo)
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-image-list] li"))
        own_submit(form)
        error = wait(browser).until(lambda d: d.find_element(By.ID, "price-error"))
        assert "원 단위" in error.text
        assert browser.execute_script("return window.__sent") == 0
        # Typed the way Korean sellers write prices: accepted, and the error goes as it is typed.
        price.clear()
        price.send_keys("12,000")
        wait(browser).until(lambda d: not d.find_elements(By.ID, "price-error"))
        # Dollars: the example shows cents.
        Select(form.find_element(By.NAME, "currency")).select_by_value("USD")
        assert price.get_attribute("placeholder") == "12.50"
        Select(form.find_element(By.NAME, "currency")).select_by_value("KRW")
        own_submit(form)
        wait(browser, 40).until(lambda d: re.search(r"/products/\d+$", d.current_url))
        product_id = int(browser.current_url.rsplit("/", 1)[1])
        assert panel.product(product_id).json()["price"] == 12000
        # The flash names the product in quotes with the particle its name needs.
        assert "‘쉼표 가격 머그컵’ 상품을 등록했습니다." in browser.page_source


def test_history_speaks_korean_with_form_names_and_money(panel, korean_browser):
    browser = korean_browser
    product = panel.register("기록 텀블러", price=1000)
    browser.get(f"{panel.url}/products/{product['id']}/edit")
    price = browser.find_element(By.NAME, "price")
    price.clear()
    price.send_keys("45,000")
    own_submit(browser.find_element(By.CSS_SELECTOR, "form[data-product-form]"))
    wait(browser).until(lambda d: re.search(r"/products/\d+$", d.current_url))
    row = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-history] [data-change=price]"))
    assert row.find_element(By.CSS_SELECTOR, "th").text == "판매가"
    assert "₩1,000" in row.text and "₩45,000" in row.text
    head = browser.find_element(By.CSS_SELECTOR, "[data-history] .activity__head").text
    assert "‘기록 텀블러’" in head
    assert re.search(r"\d{2}:\d{2} [A-Z]{2,5}|UTC[+−]\d", head), head
