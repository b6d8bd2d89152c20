"""Fixing an import's errors in a real browser: apply only the rows without errors (no JS), and
with JS show the errors alone, then upload a corrected file onto the preview without choosing its
photos again."""
import tempfile

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import png, write_file


def wait(driver, seconds=60):
    # A page being replaced by the next one leaves stale elements behind: look again.
    return WebDriverWait(driver, seconds, ignored_exceptions=[StaleElementReferenceException])


def outcomes(driver, hook):
    return {int(row.get_attribute(hook)): row.get_attribute("data-outcome")
            for row in driver.find_elements(By.CSS_SELECTOR, f"[{hook}]")}


def choose_and_preview(driver, panel, folder, csv, photos):
    driver.get(panel.url + "/products/import")
    driver.find_element(By.CSS_SELECTOR, "form[data-import-form] input[name=file]").send_keys(
        write_file(folder, "products.csv", csv.encode("utf-8")))
    if photos:
        paths = [write_file(folder, name, png(24, 24, seed=seed)) for seed, name in enumerate(photos, start=1)]
        driver.find_element(By.CSS_SELECTOR, "form[data-import-form] input[name=images]").send_keys("\n".join(paths))
    driver.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))


def product_ids(driver):
    return [int(a.get_attribute("href").rsplit("/", 1)[1])
            for a in driver.find_elements(By.CSS_SELECTOR, "[data-import-result][data-outcome=done] a")]


def test_apply_the_rows_without_errors(panel, browser_without_js):
    driver = browser_without_js
    csv = ("name,description,price,images\r\n"
           "Fix loop mug,A mug with a big handle.,9000,mug.png\r\n"
           "Fix loop cup,Too short,abc,mug.png\r\n"
           "Fix loop bowl,A bowl for soup and rice.,7000,mug.png\r\n")
    with tempfile.TemporaryDirectory(prefix="om-import-fix-") as folder:
        choose_and_preview(driver, panel, folder, csv, ["mug.png"])
    assert outcomes(driver, "data-import-row") == {2: "create", 3: "error", 4: "create"}
    links = driver.find_elements(By.CSS_SELECTOR, "[data-import-errors] a[data-import-error-link]")
    assert [link.get_attribute("href").rsplit("#", 1)[1] for link in links] == ["import-row-3"]
    button = driver.find_element(By.CSS_SELECTOR, "form[data-import-apply] button[data-import-apply-valid]")
    assert "2" in button.text
    button.click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-result]"))
    assert outcomes(driver, "data-import-result") == {2: "done", 4: "done"}
    assert "1 row with an error was left out" in driver.find_element(By.CSS_SELECTOR, "[data-import-left-out]").text
    for product_id in product_ids(driver):
        assert panel.product(product_id).json()["name"] in ("Fix loop mug", "Fix loop bowl")


def test_a_corrected_file_keeps_the_photos(panel, korean_browser):
    driver = korean_browser
    csv = ("상품명,상세설명,판매가,이미지\r\n"
           "사진 유지 도마,원목으로 만든 튼튼한 도마입니다.,,도마.png|도마_옆.png\r\n"
           "사진 유지 컵,손잡이가 큰 머그컵입니다.,9000,컵.png\r\n")
    with tempfile.TemporaryDirectory(prefix="om-import-fix-") as folder:
        choose_and_preview(driver, panel, folder, csv, ["도마.png", "도마_옆.png", "컵.png"])
        assert outcomes(driver, "data-import-row") == {2: "error", 3: "create"}
        # Errors only: the good row hides, the error row stays (in place once the script has
        # loaded; a click before that loads the server's `?show=errors` page, the same rows).
        driver.find_element(By.CSS_SELECTOR, "a[data-import-errors-only]").click()
        wait(driver, 30).until(lambda d: d.current_url.endswith("?show=errors")
                               and d.execute_script("return document.readyState") == "complete"
                               and not any(row.is_displayed() for row in d.find_elements(By.CSS_SELECTOR, "[data-import-row='3']")))
        assert driver.find_element(By.CSS_SELECTOR, "[data-import-row='2']").is_displayed()
        # The corrected file alone: no photo chosen again.
        form = driver.find_element(By.CSS_SELECTOR, "form[data-import-corrected]")
        assert "3장" in form.text
        fixed = csv.replace("도마입니다.,,", "도마입니다.,\"25,000\",")
        form.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(write_file(folder, "fixed.csv", fixed.encode("utf-8")))
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # Inside the folder's life: the browser reads the chosen file while it sends the form.
        wait(driver).until(lambda d: outcomes(d, "data-import-row") == {2: "create", 3: "create"},
                           "the corrected file's preview: " + driver.current_url)
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-import-problems]")
    driver.find_element(By.CSS_SELECTOR, "form[data-import-apply] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-result]"))
    assert outcomes(driver, "data-import-result") == {2: "done", 3: "done"}
    images = sorted(len(panel.product(product_id).json()["images"]) for product_id in product_ids(driver))
    assert images == [1, 2]
