"""The panel over HTTPS (`--tls on`, its self-signed certificate) in a real chromium: the owner
signs in, registers a product with an image, edits it and deletes it with the vendor password;
every cookie is Secure and every answer carries HSTS; plain HTTP on the HTTPS port is refused
with a page naming the https:// address."""
import hashlib
import http.client
import re
import socket
import ssl
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SECRET, Panel, make_browser, png, unverified_tls, write_file


def wait(driver, seconds=30):
    return WebDriverWait(driver, seconds)


@pytest.fixture(scope="module")
def https_panel():
    with tempfile.TemporaryDirectory(prefix="om-browser-https-") as data_dir:
        running = Panel(data_dir, extra_args=["--tls", "on", "--sign-in"])
        yield running
        running.stop()


@pytest.fixture
def https_browser():
    # Chromium cannot be told to trust one fingerprint; the test compares it with the printed one instead.
    driver = make_browser(extra_arguments=["--ignore-certificate-errors"])
    yield driver
    driver.quit()


def fetch(panel, path):
    """One HTTPS request outside the browser: (status, headers as a list of pairs, body)."""
    connection = http.client.HTTPSConnection("127.0.0.1", panel.port, timeout=10, context=unverified_tls())
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.getheaders(), answer.read()
    finally:
        connection.close()


def post(panel, path, origin):
    connection = http.client.HTTPSConnection("127.0.0.1", panel.port, timeout=10, context=unverified_tls())
    try:
        connection.request("POST", path, body="name=boss&password=x",
                           headers={"Origin": origin, "Content-Type": "application/x-www-form-urlencoded"})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def fill_and_submit(driver, fields, form_selector):
    form = driver.find_element(By.CSS_SELECTOR, form_selector)
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name])").click()


def path_of(driver):
    return driver.current_url.split("?")[0]


def test_printed_fingerprint_is_the_served_certificates(https_panel):
    printed = https_panel.printed("TLS certificate SHA-256")
    with socket.create_connection(("127.0.0.1", https_panel.port), timeout=10) as raw:
        with unverified_tls().wrap_socket(raw) as tls:
            served = tls.getpeercert(binary_form=True)
            assert tls.version() in ("TLSv1.2", "TLSv1.3")
    assert printed == ":".join(f"{byte:02X}" for byte in hashlib.sha256(served).digest())
    assert https_panel.printed("Admin panel") == https_panel.url + "/"


def test_answers_carry_hsts_and_secure_cookies(https_panel):
    status, headers, _ = fetch(https_panel, "/login")
    assert status == 200
    assert ("Strict-Transport-Security", "max-age=31536000") in headers
    cookies = [value for name, value in headers if name.lower() == "set-cookie"]
    assert cookies, headers
    for cookie in cookies:
        assert "secure" in [part.strip().lower() for part in cookie.split(";")], cookie
    # Static files and refusals too: a browser that got any answer never speaks plain HTTP here again.
    for path in ["/static/app.css", "/no-such-page"]:
        _, headers, _ = fetch(https_panel, path)
        assert dict(headers).get("Strict-Transport-Security") == "max-age=31536000", path


def test_a_post_from_the_plain_http_origin_is_refused(https_panel):
    # Nothing of the panel's is served at http://host:port (that port speaks TLS): such a page
    # could only come from someone answering in its place.
    status, body = post(https_panel, "/login", f"http://127.0.0.1:{https_panel.port}")
    assert status == 403 and b"another site" in body
    _, body = post(https_panel, "/login", https_panel.url)      # (then refused for its missing form token)
    assert b"another site" not in body


def test_plain_http_on_the_https_port_gets_a_400_naming_the_https_address(https_panel, https_browser):
    with socket.create_connection(("127.0.0.1", https_panel.port), timeout=10) as raw:
        raw.sendall(f"GET /products HTTP/1.1\r\nHost: 127.0.0.1:{https_panel.port}\r\n\r\n".encode())
        answer = b""
        while chunk := raw.recv(65536):      # the panel closes after its answer
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), head
    assert b"\r\nConnection: close" in head
    assert f'href="{https_panel.url}/"'.encode() in body

    # What a seller who typed http:// sees: the same page, whose link leads to the panel.
    plain = f"http://127.0.0.1:{https_panel.port}/products"
    https_browser.get(plain)
    link = wait(https_browser).until(lambda d: d.find_element(By.CSS_SELECTOR, f'a[href="{https_panel.url}/"]'))
    link.click()
    wait(https_browser).until(lambda d: d.current_url.startswith(https_panel.url + "/") and d.find_elements(By.NAME, "password"))


def test_owner_signs_in_registers_edits_and_deletes_over_https(https_panel, https_browser):
    browser, panel = https_browser, https_panel
    setup = panel.setup_link()
    assert setup.startswith(panel.url + "/setup/")

    browser.get(setup)
    fill_and_submit(browser, {"name": "boss", "password": "owner-password-1", "password_confirm": "owner-password-1"},
                    "main form")
    wait(browser).until(lambda d: path_of(d) == panel.url + "/products")
    # Sign out and in again: the session cookie is set over TLS, and only ever sent over it.
    browser.find_element(By.CSS_SELECTOR, 'form[action="/logout"] button').click()
    wait(browser).until(lambda d: "/login" in d.current_url)
    fill_and_submit(browser, {"name": "boss", "password": "owner-password-1"}, "main form")
    wait(browser).until(lambda d: path_of(d) == panel.url + "/products")
    cookies = {cookie["name"]: cookie for cookie in browser.get_cookies()}
    assert {"om_session", "om_form"} <= cookies.keys()
    assert all(cookie["secure"] for cookie in cookies.values()), cookies

    # Register with an image through the form.
    with tempfile.TemporaryDirectory() as folder:
        photo = write_file(folder, "lamp.png", png(48, 40, seed=11))
        browser.get(panel.url + "/products/new")
        form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
        form.find_element(By.NAME, "name").send_keys("TLS lamp")
        form.find_element(By.NAME, "description").send_keys("Registered over HTTPS.")
        form.find_element(By.NAME, "price").send_keys("27000")
        form.find_element(By.NAME, "stock").send_keys("5")
        form.find_element(By.NAME, "images").send_keys(photo)
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-image-list] li"))
        form.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name])").click()
        wait(browser).until(lambda d: re.fullmatch(re.escape(panel.url) + r"/products/\d+", path_of(d)))
    product_url = path_of(browser)
    product_id = int(product_url.rsplit("/", 1)[1])
    assert browser.find_element(By.CSS_SELECTOR, '[role="status"]').text
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == "TLS lamp"
    image = browser.find_element(By.CSS_SELECTOR, "[data-gallery] img")
    assert image.get_attribute("src").startswith(panel.url + "/media/")       # no mixed content
    wait(browser).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth === 48", image))
    assert panel.product(product_id).json()["name"] == "TLS lamp"

    # Edit it.
    browser.get(product_url + "/edit")
    fill_and_submit(browser, {"name": "TLS lamp, brass"}, "main form.product-form")
    wait(browser).until(lambda d: path_of(d) == product_url and d.find_element(By.CSS_SELECTOR, "h1").text == "TLS lamp, brass")
    assert panel.product(product_id).json()["name"] == "TLS lamp, brass"

    # Delete it with the vendor password, typed into the dialog.
    browser.find_element(By.CSS_SELECTOR, "[data-delete-open]").click()
    dialog = browser.find_element(By.CSS_SELECTOR, "dialog[data-delete-dialog]")
    password = dialog.find_element(By.NAME, "password")
    wait(browser).until(lambda d: d.switch_to.active_element == password)
    password.send_keys(SECRET)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name])").click()
    wait(browser).until(lambda d: path_of(d) == panel.url + "/products")
    assert browser.find_element(By.CSS_SELECTOR, '[role="status"]').text
    assert SECRET not in browser.page_source
    assert panel.product(product_id).status_code == 404
