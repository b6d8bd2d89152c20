"""A Korean seller's second hour: import in their own column names with Excel's row numbers, and
a bulk bar that leaves the list visible on a phone (the menu and the 44 px targets: test_phone_targets.py)."""
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import png, write_file
from test_layout import open_page


def wait(driver, seconds=60):
    return WebDriverWait(driver, seconds)


def preview(driver, panel, csv_text, photos=()):
    """Uploads a CSV (and photos: (name, bytes)) on the Korean import page; answers the rows by number."""
    with tempfile.TemporaryDirectory(prefix="om-seller-") as folder:
        csv_path = write_file(folder, "상품.csv", csv_text.encode("cp949"))
        open_page(driver, panel, "/products/import", "desktop", "ko")
        driver.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(csv_path)
        if photos:
            paths = [write_file(folder, name, data) for name, data in photos]
            driver.find_element(By.CSS_SELECTOR, "input[name=images]").send_keys("\n".join(paths))
        driver.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-summary]"))
    return {int(row.get_attribute("data-import-row")): row for row in driver.find_elements(By.CSS_SELECTOR, "[data-import-row]")}


def test_korean_headers_import_and_photo_names_ignore_case(panel, browser):
    existing = panel.register("한글 머리글 기존 상품", stock=1)
    csv = ("상품번호,상품명,상품설명,판매가,통화,할인금액,재고수량,대표이미지\r\n"
           f"{existing['id']},,,\"13,000\",KRW,,7,\r\n"
           ",한글 머리글 도마,원목으로 만든 튼튼한 도마입니다.,\"25,000\",KRW,\"1,000\",4,도마_정면.JPG\r\n")
    rows = preview(browser, panel, csv, photos=[("도마_정면.jpg", png(30, 20, seed=2))])
    assert {line: row.get_attribute("data-outcome") for line, row in rows.items()} == {2: "update", 3: "create"}
    assert "오류 0건" in browser.find_element(By.CSS_SELECTOR, "[data-import-summary]").text
    browser.find_element(By.CSS_SELECTOR, "form[data-import-apply] button[type=submit]").click()
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-import-result][data-outcome=done]")) == 2)
    assert panel.product(existing["id"]).json()["stock"] == 7


def test_a_header_error_is_counted_and_explained_in_korean(panel, browser):
    rows = preview(browser, panel, "품목,값\r\n컵,1000\r\n")
    assert rows == {}
    assert "오류 1건" in browser.find_element(By.CSS_SELECTOR, "[data-import-summary]").text
    problems = browser.find_element(By.CSS_SELECTOR, "[data-import-problems]").text
    assert "상품명, 판매가, 재고수量".replace("量", "량") in problems
    assert not browser.find_elements(By.CSS_SELECTOR, "table.bulk-results")


def test_rows_are_numbered_as_excel_numbers_them_after_a_multi_line_cell(panel, browser):
    csv = ("상품명,상세설명,판매가,재고수량,이미지\r\n"
           "엑셀 행 도마,\"첫째 줄\r\n둘째 줄\r\n셋째 줄까지 있는 설명입니다.\",\"25,000\",4,https://example.com/a.jpg\r\n"
           "엑셀 행 꿀 선물세트,짧다,\"30,000\",2,https://example.com/b.jpg\r\n"
           "엑셀 행 도라지청,도라지청 스틱 30포 선물용입니다.,\"19,000\",8,https://example.com/c.jpg\r\n")
    rows = preview(browser, panel, csv)
    # Excel: header row 1, then one row per record, whatever line breaks the description holds.
    assert {line: row.get_attribute("data-outcome") for line, row in rows.items()} == {2: "create", 3: "error", 4: "create"}
    assert "엑셀 행 꿀 선물세트" in rows[3].text
    assert "3행" in rows[3].text


@pytest.fixture(scope="module")
def stocked(panel):
    made = [panel.register(f"터치 영역 상품 {n}", price=10000 + n) for n in range(3)]
    return made


def test_the_bulk_bar_leaves_three_quarters_of_a_phone_screen(panel, browser, stocked):
    open_page(browser, panel, "/products/refresh?back=/products", "phone", "ko")
    open_page(browser, panel, "/products", "phone", "ko")
    browser.find_element(By.CSS_SELECTOR, ".product__select-hit").click()
    bar = browser.find_element(By.CSS_SELECTOR, "form[data-bulk]")
    wait(browser).until(lambda d: bar.is_displayed())
    action = Select(bar.find_element(By.NAME, "action"))
    for value in [option.get_attribute("value") for option in action.options]:
        action.select_by_value(value)
        height = bar.size["height"]
        assert height <= 844 / 4, (value, height)
