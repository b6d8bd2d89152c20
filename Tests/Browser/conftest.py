"""Real-browser tests of the panel: headless chromium driven through chromedriver (WebDriver).

Each test module starts its own `openmarket-admin` (embedded sandbox, fresh data folder,
loopback ports) so flows cannot leak into each other.
"""
import json
import os
import random
import socket
import ssl
import struct
import subprocess
import tempfile
import time
import urllib.request
import zlib

import pytest
import requests
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

IDENTIFIER = "b6a1c0de-5e11-4e7a-9c0f-browser00001"
SECRET = "browser-test-password"
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def admin_binary():
    binary = os.environ.get("OPENMARKET_ADMIN_BIN")
    if binary:
        return binary
    bin_dir = subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=REPO, text=True).strip()
    return os.path.join(bin_dir, "openmarket-admin")


def unverified_tls():
    """A client TLS context that accepts the panel's self-signed certificate (tests compare its
    fingerprint with the printed one instead)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class Panel:
    def __init__(self, data_dir, extra_args=()):
        self.port = free_port()
        self.sandbox_port = free_port()
        self.https = "--tls" in extra_args and extra_args[list(extra_args).index("--tls") + 1] == "on"
        self.url = f"{'https' if self.https else 'http'}://127.0.0.1:{self.port}"
        self.api = f"http://127.0.0.1:{self.sandbox_port}"
        self.log = open(os.path.join(data_dir, "panel.log"), "w")
        self.process = subprocess.Popen(
            [admin_binary(), "--port", str(self.port), "--sandbox-port", str(self.sandbox_port),
             "--data", os.path.join(data_dir, "store"), "--identifier", IDENTIFIER, "--secret", SECRET, *extra_args],
            cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2,
                                            context=unverified_tls() if self.https else None) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError("openmarket-admin did not start; see " + self.log.name)
            time.sleep(0.2)

    def printed(self, label):
        """The value of the `label: value` line the panel printed at start."""
        self.log.flush()
        with open(self.log.name) as printed:
            for line in printed:
                if line.startswith(label + ": "):
                    return line.split(": ", 1)[1].strip()
        raise AssertionError(f"no '{label}' line printed; see " + self.log.name)

    def setup_link(self):
        """The `Set up the owner account: URL` line the panel printed at start (sign-in on)."""
        return self.printed("Set up the owner account")

    def register(self, name, price=12000, discounted=0, stock=3, currency="KRW", images=None):
        """Registers a product straight on the sandbox API, as another client would."""
        params = {"name": name, "descriptions": f"{name} — a product made by the browser tests.",
                  "description": f"{name} — a product made by the browser tests.",
                  "price": price, "discounted_price": discounted, "stock": stock,
                  "currency": currency, "secret": SECRET}
        images = images or [("a.png", png(32, 32, seed=len(name)))]
        files = [("params", (None, json.dumps(params), "application/json"))]
        files += [("images", (filename, data, "image/png")) for filename, data in images]
        answer = requests.post(self.api + "/api/products", files=files, headers={"identifier": IDENTIFIER}, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def product(self, product_id):
        return requests.get(f"{self.api}/api/products/{product_id}", timeout=10)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="module")
def panel():
    with tempfile.TemporaryDirectory(prefix="om-browser-") as data_dir:
        running = Panel(data_dir)
        yield running
        running.stop()


@pytest.fixture(scope="module")
def signed_panel():
    """A panel with sign-in on (people and passwords), on loopback."""
    with tempfile.TemporaryDirectory(prefix="om-browser-people-") as data_dir:
        running = Panel(data_dir, extra_args=["--sign-in"])
        yield running
        running.stop()


def make_browser(javascript=True, language="en-US", extra_arguments=()):
    """`language` is the browser's own language (UI and Accept-Language), like a Korean seller's."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     f"--lang={language}", *extra_arguments]:
        options.add_argument(argument)
    prefs = {"intl.accept_languages": language}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


@pytest.fixture(scope="session")
def idle_browsers():
    """Chromium takes a second or more to start, and most tests want one of the same three kinds. Each
    test worker keeps one idle browser per kind (JavaScript on or off, browser language) and lends it
    to one test at a time, made as fresh as a new one in between (`made_fresh`)."""
    idle = {}
    yield idle
    for driver in idle.values():
        driver.quit()


def lent_browser(idle, javascript, language):
    key = (javascript, language)
    driver = idle.pop(key, None) or make_browser(javascript=javascript, language=language)
    try:
        yield driver
    finally:
        if made_fresh(driver):
            idle[key] = driver
        else:
            driver.quit()


def made_fresh(driver):
    """Leaves no trace of the test before: one window on a blank page, no cookies, no storage, no
    cache, no emulated screen or colour scheme, the window size and timeouts `make_browser` sets.
    False when any of it fails; the browser is then closed, and the next test gets a new one."""
    try:
        handles = driver.window_handles
        for handle in handles[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(handles[0])
        # Storage belongs to the page's origin (the panel's), so it is cleared before leaving it.
        driver.execute_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
        driver.get("about:blank")
        for command, arguments in [("Network.clearBrowserCookies", {}), ("Network.clearBrowserCache", {}),
                                   ("Emulation.clearDeviceMetricsOverride", {}),
                                   ("Emulation.setEmulatedMedia", {"media": "", "features": []}),
                                   ("Browser.setDownloadBehavior", {"behavior": "default"})]:
            driver.execute_cdp_cmd(command, arguments)
        driver.set_window_size(1280, 1000)
        driver.set_page_load_timeout(30)
        driver.implicitly_wait(0)
        return driver.current_url == "about:blank" and len(driver.window_handles) == 1
    except Exception:
        return False


@pytest.fixture
def browser(idle_browsers):
    yield from lent_browser(idle_browsers, javascript=True, language="en-US")


@pytest.fixture
def korean_browser(idle_browsers):
    yield from lent_browser(idle_browsers, javascript=True, language="ko-KR")


@pytest.fixture
def browser_without_js(idle_browsers):
    yield from lent_browser(idle_browsers, javascript=False, language="en-US")


def click_to_navigate(driver, element, seconds=30):
    """Clicks a link or button that leads to another page and waits until the page it was on is gone:
    a wait for what the next page shows could otherwise be met by the page before it (the product
    list has its bulk form before and after a refresh), and its elements then go stale under use."""
    element.click()
    WebDriverWait(driver, seconds).until(lambda _: is_gone(element))


def is_gone(element):
    """True once `element`'s document has been replaced. Chromedriver reports that as a stale
    element, or, when it asks in the middle of the swap, as a node that "does not belong to the
    document" (which selenium's `staleness_of` lets through as an error); any other answer means
    the old page may still be there."""
    try:
        element.is_enabled()
        return False
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        return "does not belong to the document" in str(error)


def png(width, height, seed=0, noisy=False):
    """A valid RGB PNG. `noisy` pixels do not compress, which makes a large file on purpose."""
    rng = random.Random(seed)
    rows = []
    for y in range(height):
        if noisy:
            row = bytes(rng.getrandbits(8) for _ in range(width * 3))
        else:
            row = bytes([(seed * 40) % 256, (y * 255 // max(height - 1, 1)) % 256, 160]) * width
        rows.append(b"\x00" + row)
    raw = b"".join(rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def write_file(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


AXE_WHEEL = "axe-playwright-python"


def axe_source():
    """axe-core's axe.min.js, taken from the PyPI wheel of axe-playwright-python (pip download,
    never committed). scripts/test fetches it into AXE_JS; without it, it is fetched here once
    into a cache folder outside the repository."""
    given = os.environ.get("AXE_JS")
    if given and os.path.exists(given):
        with open(given, encoding="utf-8") as handle:
            return handle.read()
    cache = os.path.join(tempfile.gettempdir(), "openmarket-axe")
    target = os.path.join(cache, "axe.min.js")
    if not os.path.exists(target):
        import glob
        import zipfile
        os.makedirs(cache, exist_ok=True)
        subprocess.check_call(["python3", "-m", "pip", "download", "--no-deps", "-q", "-d", cache, AXE_WHEEL])
        wheel = sorted(glob.glob(os.path.join(cache, "axe_playwright_python-*.whl")))[-1]
        with zipfile.ZipFile(wheel) as archive:
            name = next(n for n in archive.namelist() if n.endswith("/axe.min.js"))
            with open(target + ".part", "wb") as handle:
                handle.write(archive.read(name))
        os.replace(target + ".part", target)
    with open(target, encoding="utf-8") as handle:
        return handle.read()


def set_theme(driver, theme):
    """Emulates the reader's colour scheme (the stylesheet follows prefers-color-scheme)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
