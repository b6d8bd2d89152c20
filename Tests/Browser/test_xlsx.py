"""The Excel export read back by an independent reader (openpyxl), and the round trip a seller
makes: export, edit the workbook in a spreadsheet program (openpyxl here), import, preview."""
import datetime
import io
import os
import tempfile

import openpyxl
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

HEADER = ["id", "name", "vendor", "currency", "price", "discounted_price", "bargain_price", "stock",
          "created_at", "issued_at", "thumbnail_url"]
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def export(panel, query=""):
    # Products registered straight on the API reach the panel's copy at its next sync: ask for it now.
    requests.get(panel.url + "/products/refresh?back=/products", timeout=60)
    answer = requests.get(panel.url + "/products/export.xlsx" + query, timeout=60)
    assert answer.status_code == 200, answer.text[:500]
    assert answer.headers["Content-Type"] == XLSX_TYPE
    assert answer.headers["Content-Disposition"] == 'attachment; filename="products.xlsx"'
    return answer.content


def rows_by_id(sheet):
    return {row[0].value: row for row in sheet.iter_rows(min_row=2)}


def test_export_opens_with_numbers_as_numbers_and_text_as_text(panel):
    formula = panel.register("=SUM(1,2)", price=12000, discounted=1000, stock=1234)
    korean = panel.register("제주 녹차 텀블러 350ml", price=15000, stock=0)
    dollars = panel.register("Ceramic mug", price=12.5, currency="USD", stock=8)
    book = openpyxl.load_workbook(io.BytesIO(export(panel)))
    assert book.sheetnames == ["products"]
    sheet = book["products"]
    # A bold, frozen header with the CSV's columns.
    assert [cell.value for cell in sheet[1]] == HEADER
    assert all(cell.font.b for cell in sheet[1])
    assert sheet.freeze_panes == "A2"
    # Sensible widths: wider than Excel's default for names and addresses, never absurd.
    widths = {letter: sheet.column_dimensions[letter].width for letter in "ABCDEFGHIJK"}
    assert all(6 <= width <= 62 for width in widths.values()), widths
    assert widths["B"] >= len("제주 녹차 텀블러 350ml")
    rows = rows_by_id(sheet)

    row = rows[formula["id"]]
    assert row[0].data_type == "n" and isinstance(row[0].value, int)
    # A name starting with "=" is a text cell holding exactly that text, never a formula.
    assert row[1].data_type == "s" and row[1].value == "=SUM(1,2)"
    assert row[3].value == "KRW"
    assert row[4].data_type == "n" and row[4].value == 12000
    assert row[5].value == 1000 and row[6].value == 11000
    assert row[7].data_type == "n" and row[7].value == 1234
    assert row[4].number_format == "#,##0"
    assert isinstance(row[8].value, datetime.datetime) and row[8].is_date

    assert rows[korean["id"]][1].value == "제주 녹차 텀블러 350ml"
    mug = rows[dollars["id"]]
    assert mug[4].value == 12.5 and mug[4].number_format == "#,##0.00" and mug[3].value == "USD"
    # Formulas: none anywhere in the file.
    assert not any(cell.data_type == "f" for line in sheet.iter_rows() for cell in line)


def test_export_takes_the_lists_query(panel):
    panel.register("Only this one matches zyxwv", stock=2)
    sheet = openpyxl.load_workbook(io.BytesIO(export(panel, "?q=zyxwv"))).active
    assert [row[1].value for row in sheet.iter_rows(min_row=2)] == ["Only this one matches zyxwv"]


def test_the_list_links_to_the_excel_export(panel, browser):
    browser.get(panel.url + "/products?q=tea&sort=price")
    link = browser.find_element(By.CSS_SELECTOR, "a[data-export-xlsx]")
    csv = browser.find_element(By.CSS_SELECTOR, "a[data-export]")
    xlsx_path, xlsx_query = link.get_attribute("href").split("?", 1)
    csv_path, csv_query = csv.get_attribute("href").split("?", 1)
    assert xlsx_path.endswith("/products/export.xlsx") and csv_path.endswith("/products/export.csv")
    assert xlsx_query == csv_query and "q=tea" in xlsx_query and "sort=price" in xlsx_query


def test_export_edit_import_previews_exactly_the_edits(panel, browser):
    edited = panel.register("Round trip tea", price=9000, stock=5)
    renamed = panel.register("Round trip cup", price=7000, stock=2)
    untouched = panel.register("Round trip plate", price=5000, stock=1)
    book = openpyxl.load_workbook(io.BytesIO(export(panel, "?q=round+trip")))
    sheet = book["products"]
    rows = rows_by_id(sheet)
    rows[edited["id"]][4].value = 9900      # price
    rows[edited["id"]][7].value = 12        # stock
    rows[renamed["id"]][1].value = "Round trip 머그컵"
    rows[untouched["id"]][2].value = "someone else"   # vendor: read-only, ignored
    with tempfile.TemporaryDirectory(prefix="om-xlsx-") as folder:
        path = os.path.join(folder, "edited.xlsx")
        book.save(path)
        browser.get(panel.url + "/products/import")
        field = browser.find_element(By.CSS_SELECTOR, "input[name=file]")
        assert ".xlsx" in field.get_attribute("accept")
        field.send_keys(path)
        browser.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
        WebDriverWait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))
    by_line = {int(row.get_attribute("data-import-row")): (row.get_attribute("data-outcome"), row.text)
               for row in browser.find_elements(By.CSS_SELECTOR, "[data-import-row]")}
    line_of = {row[0].value: row[0].row for row in sheet.iter_rows(min_row=2)}
    assert by_line[line_of[edited["id"]]][0] == "update"
    assert "9,900" in by_line[line_of[edited["id"]]][1] and "12" in by_line[line_of[edited["id"]]][1]
    assert by_line[line_of[renamed["id"]]][0] == "update"
    assert "Round trip 머그컵" in by_line[line_of[renamed["id"]]][1]
    assert by_line[line_of[untouched["id"]]][0] == "unchanged"
    assert len(by_line) == 3
    # Nothing was sent by the preview.
    assert panel.product(edited["id"]).json()["stock"] == 5


EDIT_HEADER_KO = ["상품번호", "상품명", "상세설명", "판매가", "통화", "즉시할인 금액", "재고수량", "판매자 (수정 불가)",
                  "할인가 (수정 불가)", "등록일 (수정 불가)", "수정일 (수정 불가)", "대표 이미지 주소 (수정 불가)"]


def import_preview(browser, panel, path):
    """Uploads a file on the import form and returns each preview row's outcome and text, by sheet row."""
    browser.get(panel.url + "/products/import")
    browser.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(path)
    browser.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
    WebDriverWait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))
    return {int(row.get_attribute("data-import-row")): (row.get_attribute("data-outcome"), row.text)
            for row in browser.find_elements(By.CSS_SELECTOR, "[data-import-row]")}


def test_the_file_for_editing_downloads_in_korean_and_imports_back_unchanged(panel, korean_browser):
    tea = panel.register("수정용 녹차", price=9000, stock=5)
    cup = panel.register("수정용 찻잔", price=7000, discounted=500, stock=2)
    requests.get(panel.url + "/products/refresh?back=/products", timeout=60)
    with tempfile.TemporaryDirectory(prefix="om-edit-") as folder:
        # A real download by the browser, from the list's own link (the browser speaks Korean).
        korean_browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
        korean_browser.get(panel.url + "/products?q=" + requests.utils.quote("수정용"))
        link = korean_browser.find_element(By.CSS_SELECTOR, "a[data-export-edit-xlsx]")
        assert link.text == "수정용 엑셀 받기"
        assert "q=" in link.get_attribute("href")
        link.click()
        path = os.path.join(folder, "products-for-editing.xlsx")
        WebDriverWait(korean_browser, 60).until(lambda d: os.path.exists(path))

        book = openpyxl.load_workbook(path)
        sheet = book["products"]
        assert [cell.value for cell in sheet[1]] == EDIT_HEADER_KO
        # The read-only headers, and only those, are grey.
        grey = [cell.fill.fgColor.rgb == "FFD9D9D9" for cell in sheet[1]]
        assert grey == [False] * 7 + [True] * 5
        rows = rows_by_id(sheet)
        assert set(rows) == {tea["id"], cup["id"]}
        assert rows[tea["id"]][2].value == tea["description"]
        assert rows[cup["id"]][3].value == 7000 and rows[cup["id"]][5].value == 500

        # Imported as downloaded: every row unchanged, nothing to apply.
        same = import_preview(korean_browser, panel, path)
        assert [outcome for outcome, _ in same.values()] == ["unchanged", "unchanged"]
        assert not korean_browser.find_elements(By.CSS_SELECTOR, "[data-import-apply]")

        # A new description, and a read-only cell typed over: only the description is an edit.
        rows[tea["id"]][2].value = "제주에서 키운 녹차입니다. 두 번째 수확분."
        rows[cup["id"]][7].value = "다른 판매자"
        edited = os.path.join(folder, "edited.xlsx")
        book.save(edited)
        preview = import_preview(korean_browser, panel, edited)
    line_of = {row[0].value: row[0].row for row in sheet.iter_rows(min_row=2)}
    assert preview[line_of[tea["id"]]][0] == "update"
    assert "두 번째 수확분" in preview[line_of[tea["id"]]][1]
    assert preview[line_of[cup["id"]]][0] == "unchanged"


def test_the_import_form_offers_the_files_for_editing(panel, korean_browser):
    korean_browser.get(panel.url + "/products/import")
    xlsx = korean_browser.find_element(By.CSS_SELECTOR, "a[data-export-edit-xlsx]")
    csv = korean_browser.find_element(By.CSS_SELECTOR, "a[data-export-edit]")
    assert xlsx.text == "수정용 엑셀 파일 받기" and csv.text == "수정용 CSV 받기"
    assert xlsx.get_attribute("href").endswith("/products/export-edit.xlsx")
    assert csv.get_attribute("href").endswith("/products/export-edit.csv")
