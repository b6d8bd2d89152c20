"""Behaviour the optimiser once changed: `scripts/test` runs these browser tests on the release
binary (`scripts/run --release`), where the import preview used to read every product under id 0
and so previewed an unchanged row as an update of its description."""
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import write_file


def csv_cell(text):
    return '"' + str(text).replace('"', '""') + '"'


def test_unchanged_rows_preview_as_unchanged(panel, browser):
    # More products than the import reads at once (4), so results arrive out of order too.
    products = [panel.register(f"Release check {n}", price=10000 + n, stock=n) for n in range(1, 9)]
    lines = ["id,name,description,price,currency,stock"]
    for product in products[:-1]:
        detail = panel.product(product["id"]).json()
        lines.append(",".join([str(detail["id"]), csv_cell(detail["name"]), csv_cell(detail["description"]),
                               str(int(detail["price"])), detail["currency"], str(detail["stock"])]))
    # One row that does change, so the preview is not trivially all-unchanged.
    lines.append(f"{products[-1]['id']},,,{products[-1]['price']},KRW,99")
    with tempfile.TemporaryDirectory(prefix="om-release-") as folder:
        path = write_file(folder, "unchanged.csv", ("\r\n".join(lines) + "\r\n").encode())
        browser.get(panel.url + "/products/import")
        browser.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(path)
        browser.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
        WebDriverWait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))
    outcomes = {int(row.get_attribute("data-import-row")): row.get_attribute("data-outcome")
                for row in browser.find_elements(By.CSS_SELECTOR, "[data-import-row]")}
    expected = {line: "unchanged" for line in range(2, 1 + len(products))}
    expected[1 + len(products)] = "update"
    assert outcomes == expected
