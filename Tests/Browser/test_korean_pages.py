"""No English on a Korean page: every page a seller can reach, signed in as the owner, read in
Korean. The scan reads every text of the page (shown or not yet shown: a closed dialog, the bulk
bar's fields for other actions, the script's texts in `data-strings`) and the attributes a person
meets (placeholder, title, aria-label, alt, button values), and finds every ASCII word that is
neither product data nor on the short allow-list below.

Product data is what the test itself put in the catalog (names, descriptions, photo file names):
it is cut out of the text before the scan, so an English product name is fine and a Korean one
proves nothing. People have Korean names for the same reason."""
import glob
import json
import os
import re
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import requests
from conftest import IDENTIFIER, REPO, SECRET, Panel, make_browser, png, write_file

OWNER = ("김사장", "owner-password-1")
COLLEAGUE = "박직원"
ZONE = "Asia/Seoul"

# Words a Korean product writer leaves in Latin letters, and why (compared ignoring case).
ALLOWED = {word.upper() for word in [
    "KRW", "USD",                     # currency codes, as the API and the 통화 field name them
    "CSV", "xlsx", "xls", "Excel",    # file formats; ‘Excel 통합 문서’ is what Korean Excel calls .xlsx
    "UTF", "CP",                      # encodings, as Excel's ‘CSV UTF-8’ and Windows' CP949 name them
    "Numbers",                        # Apple's spreadsheet, which has no Korean name
    "JPEG", "PNG", "GIF", "WebP",     # photo formats
    "B", "KB", "MB",                  # sizes (a picked photo's size is shown by the script)
    "API",                            # the marketplace as the panel names it: 오픈마켓 API
    "HTTP", "HTTPS",                  # http:// and https:// photo addresses, the console over HTTPS
    "IP",                             # IP 주소, as Korean admin screens write it
    "UTC", "KST",                     # the time zone beside a time
    "Enter", "Tab", "Esc",            # keys, by the names printed on them (the sheet's hint)
    "Chrome", "Edge", "Firefox", "Safari", "Android", "iOS", "Windows", "macOS", "Linux",  # a session's browser and system
]}
# Not words: file names (the seller's own: 상품.csv, a photo), addresses, command-line options and
# the API versions as `--dialect` names them (typed exactly as written), and “local”, the name of
# the implicit owner when sign-in is off (a person's name, like 김사장).
NOT_WORDS = re.compile(r"[^\s‘’“”'\"()]+\.(?:png|jpe?g|gif|webp|csv|xlsx)\b|https?://\S+|--[a-z-]+|\bv[12]\b|“local”",
                       re.IGNORECASE)

# What this module puts in the catalog, cut out of every text before the scan.
PRODUCTS = {
    "텀블러": ("스테인리스 텀블러 500ml", "진공 이중 구조라 6시간 동안 따뜻합니다."),
    "감귤": ("제주 감귤 5kg 선물세트", "제주에서 갓 딴 감귤을 선물 상자에 담았습니다."),
    "앞치마": ("Linen apron", "Washed linen, one size."),
    "노트": ("수입 노트 A5", "두꺼운 종이로 만든 수입 노트입니다."),
    "머그": ("오래된 머그컵", "단종된 머그컵입니다."),
}
PRODUCT_TEXTS = sorted([text for pair in PRODUCTS.values() for text in pair]
                       + ["수제 유자청 500g", "국산 유자로 만든 유자청입니다.", "호두 쟁반", "겨울 니트 머플러"]
                       + [SECRET, IDENTIFIER], key=len, reverse=True)

# Every text of the page with where it sits. Skipped: scripts and styles, keys and code (`n`,
# `Enter` are keys, not words), and anything that declares another language (the language switch's
# "English").
PAGE_TEXTS = """
const skip = 'script, style, noscript, kbd, code, samp, [lang]:not([lang|="ko"])';
const found = [];
const where = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
  + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (!parent || parent.closest(skip) || !node.data.trim()) continue;
  found.push([where(parent), node.data]);
}
const attributes = ['placeholder', 'title', 'aria-label', 'alt', 'aria-description', 'aria-roledescription', 'label'];
for (const el of document.body.querySelectorAll('*')) {
  if (el.closest(skip)) continue;
  for (const name of attributes) {
    const value = el.getAttribute(name);
    if (value && value.trim()) found.push([where(el) + '@' + name, value]);
  }
  if (el.matches('input[type=submit], input[type=button], input[type=reset]') && el.value) found.push([where(el) + '@value', el.value]);
}
found.push(['title', document.title]);
return found;
"""


def wait(driver, seconds=30):
    return WebDriverWait(driver, seconds)


def english_words(found):
    """`word ← where: text` for every ASCII word outside product data, addresses and the
    allow-list, once each (sorted, so a failure reads as a list)."""
    words = set()
    for where, text in found:
        cleaned = text
        for product in PRODUCT_TEXTS:
            cleaned = cleaned.replace(product, " ")
        cleaned = NOT_WORDS.sub(" ", cleaned)
        for word in re.findall(r"[A-Za-z]+", cleaned):
            if word.upper() not in ALLOWED:
                words.add(f"{word} ← {where}: {' '.join(text.split())[:160]}")
    return sorted(words)


def scan(driver):
    return english_words(driver.execute_script(PAGE_TEXTS))


def register(panel, key, price=12000, discounted=0, stock=5, currency="KRW"):
    """A product straight on the sandbox API, its description in Korean (product data)."""
    name, description = PRODUCTS[key]
    params = {"name": name, "description": description, "descriptions": description, "price": price,
              "discounted_price": discounted, "stock": stock, "currency": currency, "secret": SECRET}
    files = [("params", (None, json.dumps(params), "application/json")),
             ("images", ("p.png", png(48, 48, seed=len(name)), "image/png"))]
    answer = requests.post(panel.api + "/api/products", files=files, headers={"identifier": IDENTIFIER}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def go(driver, panel, path):
    driver.get(panel.url + path)
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def fill(form, fields):
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)


def submit(form):
    form.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name])").click()


def local_time(seconds_from_now):
    """A datetime-local value in the panel's zone (Seoul: UTC+9, no daylight saving)."""
    moment = time.gmtime(time.time() + 9 * 3600 + seconds_from_now)
    return time.strftime("%Y-%m-%dT%H:%M", moment)


def schedule_sale(driver, panel, product_id, discount, start, end):
    go(driver, panel, f"/products/{product_id}")
    for name, value in (("sale_discount", discount), ("sale_start", local_time(start)), ("sale_end", local_time(end))):
        field = driver.find_element(By.CSS_SELECTOR, f'[data-sale-form] input[name="{name}"]')
        driver.execute_script("arguments[0].value = arguments[1]", field, value)
    driver.find_element(By.CSS_SELECTOR, "[data-sale-form] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-product-sales] [data-state]"))


class Store:
    """The module's panel, its Korean browser (signed in as the owner) and what the seed made."""

    def __init__(self, panel, driver, products, setup_words):
        self.panel, self.driver, self.products, self.setup_words = panel, driver, products, setup_words

    def words_on(self, path):
        go(self.driver, self.panel, path)
        return scan(self.driver)


def tick_and_run(driver, panel, ids, action, fields):
    go(driver, panel, "/products?sort=oldest")
    for product_id in ids:
        driver.find_element(By.CSS_SELECTOR, f'input[name="ids"][value="{product_id}"]').click()
    bar = driver.find_element(By.CSS_SELECTOR, "form[data-bulk]")
    Select(bar.find_element(By.NAME, "action")).select_by_value(action)
    for name, value in fields.items():
        field = bar.find_element(By.NAME, name)
        driver.execute_script("arguments[0].value = arguments[1]", field, value)
    bar.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-bulk-result]"))


def import_preview(driver, panel, folder, product_id, with_errors=True):
    """A preview with an update and a create row, and two error rows (a fraction of a won, a
    photo not chosen) unless `with_errors` is off."""
    csv = ("상품번호,상품명,상세설명,판매가,통화,재고수량,이미지\r\n"
           f"{product_id},,,\"13,000\",KRW,7,\r\n"
           ",수제 유자청 500g,국산 유자로 만든 유자청입니다.,\"9,900\",KRW,12,유자청.png\r\n")
    if with_errors:
        csv += (",호두 쟁반,호두 쟁반,12000.5,KRW,3,없는사진.jpg\r\n"
                "999999999,겨울 니트 머플러,,1000,KRW,1,\r\n")
    go(driver, panel, "/products/import")
    driver.find_element(By.CSS_SELECTOR, "input[name=file]").send_keys(write_file(folder, "상품.csv", csv.encode("cp949")))
    driver.find_element(By.CSS_SELECTOR, "input[name=images]").send_keys(write_file(folder, "유자청.png", png(32, 24, seed=5)))
    driver.find_element(By.CSS_SELECTOR, "form[data-import-form] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-row]"))


@pytest.fixture(scope="module")
def store():
    with tempfile.TemporaryDirectory(prefix="om-korean-") as folder:
        panel = Panel(folder, extra_args=["--sign-in", "--time-zone", ZONE])
        driver = make_browser(language="ko-KR")
        try:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False})
            driver.get(panel.setup_link())
            setup_words = scan(driver)
            form = driver.find_element(By.CSS_SELECTOR, "main form")
            fill(form, {"name": OWNER[0], "password": OWNER[1], "password_confirm": OWNER[1]})
            submit(form)
            wait(driver).until(lambda d: d.current_url.endswith("/products"))
            products = {"텀블러": register(panel, "텀블러", price=15000, discounted=1000),
                        "감귤": register(panel, "감귤", price=32000, stock=0),
                        "앞치마": register(panel, "앞치마", price=24000),
                        "노트": register(panel, "노트", price=19.5, currency="USD"),
                        "머그": register(panel, "머그", price=8900)}
            go(driver, panel, "/products/refresh?back=/products")
            # An edit (the log's old → new and a revert form), a delete (trash), a draft.
            go(driver, panel, f"/products/{products['텀블러']['id']}/edit")
            form = driver.find_element(By.CSS_SELECTOR, "main form.product-form")
            fill(form, {"price": "15900"})
            submit(form)
            wait(driver).until(lambda d: "/edit" not in d.current_url)
            go(driver, panel, f"/products/{products['머그']['id']}/delete")
            driver.find_element(By.CSS_SELECTOR, "main form input[name=password]").send_keys(SECRET)
            driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
            wait(driver).until(lambda d: "/delete" not in d.current_url)
            go(driver, panel, "/products/new")
            fill(driver.find_element(By.CSS_SELECTOR, "main form"), {"name": "겨울 니트 머플러"})
            driver.find_element(By.CSS_SELECTOR, 'main form button[name="draft"]').click()
            wait(driver).until(lambda d: "/products/new" not in d.current_url)
            # Sales: one running, one scheduled, one cancelled, and a bulk 즉시할인 run.
            schedule_sale(driver, panel, products["텀블러"]["id"], "3,000", 60, 86400 * 3)
            schedule_sale(driver, panel, products["앞치마"]["id"], "10%", 86400, 86400 * 3)
            go(driver, panel, "/sales")
            driver.find_elements(By.CSS_SELECTOR, '[data-sale][data-state="scheduled"] form button[type=submit]')[-1].click()
            wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sale][data-state="cancelled"]'))
            tick_and_run(driver, panel, [products["텀블러"]["id"], products["감귤"]["id"]], "schedule-discount",
                         {"sale_discount": "10%", "sale_start": local_time(86400 * 5), "sale_end": local_time(86400 * 7)})
            # A colleague invited, an import applied.
            go(driver, panel, "/people")
            form = driver.find_element(By.CSS_SELECTOR, 'form[action="/people"]')
            fill(form, {"name": COLLEAGUE})
            Select(form.find_element(By.NAME, "role")).select_by_value("editor")
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            invitation = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-invitation-url]"))
            products["invitation"] = invitation.get_attribute("value")
            import_preview(driver, panel, folder, products["감귤"]["id"], with_errors=False)
            driver.find_element(By.CSS_SELECTOR, "form[data-import-apply] button[type=submit]").click()
            wait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-import-result]"))
            products["import_result"] = driver.current_url
            go(driver, panel, "/products/refresh?back=/products")
            yield Store(panel, driver, products, setup_words)
        finally:
            driver.quit()
            panel.stop()


def product_id(store, key):
    return store.products[key]["id"]


def test_the_setup_page(store):
    assert store.setup_words == []


@pytest.mark.parametrize("path", [
    "/products?view=list", "/products?view=grid", "/products?view=list&q=%EA%B0%90%EA%B7%A4&stock=sold-out",
    "/products?view=list&q=%EC%97%86%EB%8A%94%EB%A7%90", "/products/sheet?sort=oldest",
    "detail:텀블러", "detail:노트", "edit:텀블러", "delete:텀블러", "duplicate:앞치마", "/products/new",
    "/products/import", "/trash", "/drafts", "/activity", "/sales", "/people", "/account",
    "/products/999999999", "/no/such/page",
])
def test_every_page_reads_in_korean(store, path):
    if ":" in path:
        kind, key = path.split(":")
        path = {"detail": "/products/{}", "edit": "/products/{}/edit", "delete": "/products/{}/delete",
                "duplicate": "/products/{}/duplicate"}[kind].format(product_id(store, key))
    assert store.words_on(path) == [], path


def test_the_list_with_ticks_and_every_bulk_action(store):
    driver = store.driver
    go(driver, store.panel, "/products?sort=oldest")
    driver.find_element(By.CSS_SELECTOR, 'input[name="ids"]').click()
    action = Select(driver.find_element(By.CSS_SELECTOR, "form[data-bulk] select[name=action]"))
    words = []
    for value in [option.get_attribute("value") for option in action.options]:
        action.select_by_value(value)
        words += scan(driver)
    assert words == []


def test_the_bulk_result_and_the_revert_result(store):
    driver, panel = store.driver, store.panel
    tick_and_run(driver, panel, [product_id(store, "텀블러"), product_id(store, "앞치마")], "adjust-price", {"amount": "+5%"})
    assert scan(driver) == [], "bulk result"
    go(driver, panel, "/activity")
    driver.find_element(By.CSS_SELECTOR, "[data-bulk-run] form[data-revert] button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-revert-product]"))
    assert scan(driver) == [], "revert result"
    assert store.words_on("/activity") == [], "activity after a revert"


def test_the_detail_page_with_its_dialogs_open(store):
    driver = store.driver
    go(driver, store.panel, f"/products/{product_id(store, '텀블러')}")
    driver.find_element(By.CSS_SELECTOR, "[data-delete-open]").click()
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog[data-delete-dialog]").get_attribute("open") is not None)
    words = scan(driver)
    driver.execute_script("document.querySelector('dialog[data-delete-dialog]').close()")
    driver.find_element(By.CSS_SELECTOR, "[data-shortcuts-open]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open] kbd"))
    assert words + scan(driver) == []


def test_the_activity_detail_and_a_product_history(store):
    driver = store.driver
    go(driver, store.panel, "/activity")
    for summary in driver.find_elements(By.CSS_SELECTOR, ".activity__more > summary")[:3]:
        summary.click()
    assert scan(driver) == []
    assert store.words_on(f"/products/{product_id(store, '텀블러')}") == []


def test_forms_with_their_errors(store):
    driver = store.driver
    go(driver, store.panel, "/products/new")
    driver.execute_script("document.querySelectorAll('form').forEach(f => f.noValidate = true)")
    submit(driver.find_element(By.CSS_SELECTOR, "main form.product-form"))
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".field-error, .error-summary"))
    words = scan(driver)
    go(driver, store.panel, "/products/sheet?sort=oldest")
    cell = driver.find_element(By.CSS_SELECTOR, '[data-sheet-cell$=":price"]')
    cell.clear()
    cell.send_keys("12,000.5")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[aria-invalid=true]"))
    assert words + scan(driver) == []


def test_import_preview_with_errors_and_its_result(store):
    driver = store.driver
    with tempfile.TemporaryDirectory(prefix="om-korean-import-") as folder:
        import_preview(driver, store.panel, folder, product_id(store, "앞치마"))
    assert scan(driver) == [], "preview"
    assert store.words_on(store.products["import_result"].replace(store.panel.url, "")) == [], "result"


def test_the_draft_and_the_vendor_password_view(store):
    driver = store.driver
    go(driver, store.panel, "/drafts")
    driver.find_element(By.CSS_SELECTOR, "[data-draft] a").click()
    wait(driver).until(lambda d: "/drafts/" in d.current_url)
    words = scan(driver)
    go(driver, store.panel, "/account")
    form = driver.find_element(By.CSS_SELECTOR, 'form[action="/account/vendor-password"]')
    form.find_element(By.CSS_SELECTOR, "input[type=password]").send_keys(OWNER[1])
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    shown = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-vendor-password-value]"))
    assert shown.get_attribute("value") == SECRET
    driver.find_element(By.CSS_SELECTOR, "[data-copy]").click()   # its copy button answers in words too
    assert words + scan(driver) == []


def test_the_sign_in_and_invitation_pages(store):
    driver = store.driver
    driver.delete_all_cookies()
    driver.get(store.products["invitation"])
    words = scan(driver)
    assert driver.find_elements(By.CSS_SELECTOR, "main form input[name=password_confirm]")
    go(driver, store.panel, "/login")
    words += scan(driver)
    form = driver.find_element(By.CSS_SELECTOR, "main form")
    fill(form, {"name": OWNER[0], "password": "wrong-password-1"})
    submit(form)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[role=alert]"))
    words += scan(driver)
    form = driver.find_element(By.CSS_SELECTOR, "main form")
    fill(form, {"name": OWNER[0], "password": OWNER[1]})
    submit(form)
    wait(driver).until(lambda d: d.current_url.endswith("/products"))
    assert words == []


def test_the_page_a_seller_sees_when_the_market_is_down():
    with tempfile.TemporaryDirectory(prefix="om-korean-down-") as folder:
        down = Panel(folder, extra_args=["--api", "http://127.0.0.1:9", "--timeout", "2"])
        driver = make_browser(language="ko-KR")
        try:
            go(driver, down, "/products")
            assert driver.find_elements(By.CSS_SELECTOR, "[role=alert], .error-page")
            assert scan(driver) == []
        finally:
            driver.quit()
            down.stop()


def test_script_texts(store):
    """The texts app.js, catalog.js, sheet.js and live.js show (`data-strings`), placeholders aside."""
    go(store.driver, store.panel, "/products")
    strings = store.driver.execute_script("return JSON.parse(document.body.dataset.strings)")
    found = [(key, re.sub(r"\{[^{}]*\}", " ", value)) for key, value in strings.items() if isinstance(value, str)]
    assert english_words(found) == []


def test_the_scan_finds_english_and_spares_product_data():
    found = [("p", "Save 버튼 · ‘Linen apron’을 저장했습니다 · ₩12,000 KRW · 상품.csv 3행 · https://example.com/a.jpg · --sign-in"),
             ("button@title", "Delete")]
    assert [line.split(" ")[0] for line in english_words(found)] == ["Delete", "Save"]


def test_every_korean_catalog_text():
    """Every Korean text, also those no page above reaches (v1, sign-in off, refused files)."""
    found = []
    for path in glob.glob(os.path.join(REPO, "Templates", "strings", "*ko.json")):
        with open(path, encoding="utf-8") as catalog:
            for key, value in json.load(catalog).items():
                if key == "language_name_en":   # the language switch names English in English
                    continue
                for text in value.values() if isinstance(value, dict) else [value]:
                    found.append((key, re.sub(r"\{[^{}]*\}", " ", text)))
    assert len(found) > 500
    assert english_words(found) == []
