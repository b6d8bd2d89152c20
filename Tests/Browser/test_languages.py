"""Korean and English: a Korean browser gets a Korean panel; the header links switch and stick."""
from selenium.webdriver.common.by import By


def test_korean_browser_sees_korean_and_can_switch(panel, korean_browser):
    product = panel.register("한글 상품 이름")
    browser = korean_browser
    browser.get(panel.url + "/products")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ko"
    assert browser.find_element(By.TAG_NAME, "h1").text == "상품 목록"
    assert "재고" in browser.find_element(By.CSS_SELECTOR, f"[data-product-id='{product['id']}']").text

    browser.get(f"{panel.url}/products/{product['id']}")
    assert "등록일" in browser.page_source
    # The script's texts come from the same catalog (gallery buttons are made by app.js).
    browser.get(panel.url + "/products/new")
    assert browser.find_element(By.CSS_SELECTOR, "label[for=name]").text == "상품명"

    browser.find_element(By.CSS_SELECTOR, "[data-language-switch] a[lang=en]").click()
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert browser.find_element(By.CSS_SELECTOR, "label[for=name]").text == "Product name"
    assert browser.current_url.endswith("/products/new?lang=en")
    # Remembered: the next page stays English although the browser asks for Korean.
    browser.get(panel.url + "/products")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Products"
    browser.find_element(By.CSS_SELECTOR, "[data-language-switch] a[lang=ko]").click()
    assert browser.find_element(By.TAG_NAME, "h1").text == "상품 목록"


def test_script_texts_follow_the_language(panel, korean_browser):
    browser = korean_browser
    browser.get(f"{panel.url}/products/new")
    strings = browser.execute_script("return JSON.parse(document.body.dataset.strings)")
    assert strings["picker_remove"] == "삭제"
    assert strings["upload_aborted"].startswith("업로드가 중단")
