"""Each flow as a seller does it, in a real (headless) chromium with JavaScript on."""
import re
import tempfile

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SECRET, png, write_file


def wait(driver, seconds=20):
    return WebDriverWait(driver, seconds)


def product_id_from(url):
    match = re.search(r"/products/(\d+)$", url.split("?")[0])
    assert match, url
    return int(match.group(1))


def submit(form):
    # The form's own submit button (kept images have order buttons that submit without JS).
    form.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name]), input[type=submit]").click()


def test_list_grid_and_detail(panel, browser):
    first = panel.register("브라우저 텀블러", price=35000, discounted=5000, stock=0)
    panel.register("Browser mug", price=12.5, currency="USD", stock=4)

    browser.get(panel.url + "/products")
    main = browser.find_element(By.TAG_NAME, "main")
    assert main.get_attribute("data-view") == "list"
    card = browser.find_element(By.CSS_SELECTOR, f'[data-product-id="{first["id"]}"]')
    assert "브라우저 텀블러" in card.text
    assert "₩30,000" in card.text and "₩35,000" in card.text      # bargain price and the struck original
    assert card.find_elements(By.CSS_SELECTOR, "s, del")             # original price struck through
    assert re.search(r"sold out|품절", card.text, re.I)
    assert "$12.50" in browser.find_element(By.TAG_NAME, "main").text

    browser.find_element(By.CSS_SELECTOR, '[data-view-toggle][href*="view=grid"]').click()
    wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "main").get_attribute("data-view") == "grid")
    browser.get(panel.url + "/products")      # the choice is remembered
    assert browser.find_element(By.TAG_NAME, "main").get_attribute("data-view") == "grid"

    search = browser.find_element(By.NAME, "q")
    search.send_keys("텀블러")
    search.submit()
    wait(browser).until(lambda d: "q=" in d.current_url)
    ids = [e.get_attribute("data-product-id") for e in browser.find_elements(By.CSS_SELECTOR, "[data-product-id]")]
    assert ids == [str(first["id"])]

    # The link carries the list it came from in back= (keep your place).
    browser.find_element(By.CSS_SELECTOR, f'[data-product-id="{first["id"]}"] a[href^="/products/{first["id"]}?back="]').click()
    wait(browser).until(lambda d: d.current_url.split("?")[0].endswith(f"/products/{first['id']}"))
    gallery = browser.find_element(By.CSS_SELECTOR, "[data-gallery]")
    image = gallery.find_element(By.TAG_NAME, "img")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    assert SECRET not in browser.page_source


def test_register_with_two_images_one_downscaled(panel, browser):
    with tempfile.TemporaryDirectory() as folder:
        small = write_file(folder, "small.png", png(64, 48, seed=3))
        large_bytes = png(420, 420, seed=9, noisy=True)
        assert len(large_bytes) > 307_200
        large = write_file(folder, "large.png", large_bytes)

        browser.get(panel.url + "/products/new")
        form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
        form.find_element(By.NAME, "name").send_keys("Downscaled lamp")
        form.find_element(By.NAME, "description").send_keys("A lamp whose photo is too large at first.")
        form.find_element(By.NAME, "price").send_keys("45000")
        form.find_element(By.NAME, "stock").send_keys("2")
        form.find_element(By.NAME, "images").send_keys(small + "\n" + large)
        assert form.find_elements(By.TAG_NAME, "progress") or browser.find_elements(By.TAG_NAME, "progress")
        submit(form)
        wait(browser, 40).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))

    product_id = product_id_from(browser.current_url)
    assert browser.find_element(By.CSS_SELECTOR, '[role="status"]').text
    detail = panel.product(product_id).json()
    assert detail["name"] == "Downscaled lamp"
    assert len(detail["images"]) == 2
    for image in detail["images"]:
        body = requests.get(image["url"], timeout=10).content
        assert 0 < len(body) <= 307_200


def test_reordering_images_keeps_keyboard_focus_on_the_moved_image(panel, browser):
    with tempfile.TemporaryDirectory() as folder:
        first = write_file(folder, "first.png", png(32, 32, seed=1))
        second = write_file(folder, "second.png", png(32, 32, seed=2))
        third = write_file(folder, "third.png", png(32, 32, seed=4))
        browser.get(panel.url + "/products/new")
        browser.find_element(By.NAME, "images").send_keys("\n".join([first, second, third]))
        later = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-image-list] button[aria-label="Move first.png later"]'))
        later.click()
        focused = browser.switch_to.active_element
        assert focused.get_attribute("aria-label") == "Move first.png later"
        focused.click()                      # now last: "later" is disabled, focus stays on the image
        focused = browser.switch_to.active_element
        assert focused.get_attribute("aria-label") == "Move first.png earlier"
        names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-image-list] .image-item__name")]
        assert names == ["second.png", "third.png", "first.png"]


def test_picker_message_is_tied_to_the_images_input(panel, browser):
    with tempfile.TemporaryDirectory() as folder:
        notes = write_file(folder, "notes.txt", b"not an image")
        browser.get(panel.url + "/products/new")
        images = browser.find_element(By.NAME, "images")
        images.send_keys(notes)
        message = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-picker-message]"))
        assert "notes.txt" in message.text
        assert "field-error" in message.get_attribute("class").split()
        assert message.get_attribute("id") in images.get_attribute("aria-describedby").split()
        assert "images-hint" in images.get_attribute("aria-describedby").split()


def test_gallery_buttons_jump_without_animation_when_motion_is_reduced(panel, browser):
    product = panel.register("Two-photo vase", images=[("a.png", png(64, 64, seed=5)), ("b.png", png(64, 64, seed=6))])
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        browser.get(f"{panel.url}/products/{product['id']}")
        gallery = browser.find_element(By.CSS_SELECTOR, "[data-gallery]")
        track = gallery.find_element(By.CSS_SELECTOR, "[data-gallery-track]")
        gallery.find_element(By.CSS_SELECTOR, 'button[aria-label="Next image"]').click()
        # No animation: the track is at the second image at once, not on its way there.
        assert browser.execute_script("return arguments[0].scrollLeft", track) >= track.size["width"] - 2
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_validation_error_keeps_text_and_images_with_their_controls(panel, browser):
    with tempfile.TemporaryDirectory() as folder:
        first = write_file(folder, "first.png", png(40, 40, seed=5))
        second = write_file(folder, "second.png", png(44, 44, seed=6))
        # Named like a PNG, but not one: only the server, reading the bytes, can refuse it.
        fake = write_file(folder, "fake.png", b"this is not an image at all")
        browser.get(panel.url + "/products/new")
        form = browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
        form.find_element(By.NAME, "name").send_keys("할인 오류 상품")
        form.find_element(By.NAME, "description").send_keys("One of the files is not an image.")
        form.find_element(By.NAME, "price").send_keys("1000")
        form.find_element(By.NAME, "images").send_keys("\n".join([first, second, fake]))
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-image-list] li")) == 3)
        submit(form)
        wait(browser, 30).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".field-error")))

    assert browser.find_element(By.NAME, "name").get_attribute("value") == "할인 오류 상품"
    assert browser.find_element(By.NAME, "description").get_attribute("value") == "One of the files is not an image."
    error = browser.find_element(By.CSS_SELECTOR, ".field-error")
    assert "fake.png" in error.text
    described = browser.find_element(By.NAME, "images").get_attribute("aria-describedby") or ""
    assert error.get_attribute("id") in described.split()
    staged = browser.find_element(By.CSS_SELECTOR, "[data-staged-images]")
    items = staged.find_elements(By.CSS_SELECTOR, "[data-staged-image]")
    assert [i.find_element(By.CSS_SELECTOR, ".image-item__name").text for i in items] == ["first.png", "second.png"]
    # The kept images keep their order buttons and the thumbnail badge; the disabled ends look disabled.
    assert items[0].find_elements(By.CSS_SELECTOR, "[data-thumbnail-badge]")
    # With JS the ←/→ buttons stand in for the position menus (the no-JS way to order them).
    assert not [menu for menu in staged.find_elements(By.TAG_NAME, "select") if menu.is_displayed()]
    first_earlier = items[0].find_element(By.CSS_SELECTOR, "[data-staged-move='-1']")
    assert not first_earlier.is_enabled()
    assert float(first_earlier.value_of_css_property("opacity")) < 0.6
    items[1].find_element(By.CSS_SELECTOR, "[data-staged-move='-1']").click()
    items = staged.find_elements(By.CSS_SELECTOR, "[data-staged-image]")
    assert [i.find_element(By.CSS_SELECTOR, ".image-item__name").text for i in items] == ["second.png", "first.png"]
    assert items[0].find_elements(By.CSS_SELECTOR, "[data-thumbnail-badge]")
    assert not items[1].find_elements(By.CSS_SELECTOR, "[data-thumbnail-badge]")

    # Send again without picking the files a second time: the new order holds (second is the thumbnail).
    submit(browser.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]'))
    wait(browser, 30).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))
    detail = panel.product(product_id_from(browser.current_url)).json()
    assert detail["name"] == "할인 오류 상품"
    assert len(detail["images"]) == 2
    sizes = [len(requests.get(image["url"], timeout=10).content) for image in detail["images"]]
    assert sizes == [len(png(44, 44, seed=6)), len(png(40, 40, seed=5))]


def test_edit_changes_the_thumbnail(panel, browser):
    product = panel.register("Two-photo chair", images=[("1.png", png(30, 30, seed=1)), ("2.png", png(30, 30, seed=2))])
    second_image = product["images"][1]
    browser.get(f"{panel.url}/products/{product['id']}/edit")
    name = browser.find_element(By.NAME, "name")
    assert name.get_attribute("value") == "Two-photo chair"
    name.clear()
    name.send_keys("Two-photo chair, oak")
    browser.find_element(By.CSS_SELECTOR, f'input[type=radio][name="thumbnail_id"][value="{second_image["id"]}"]').click()
    submit(name.find_element(By.XPATH, "./ancestor::form"))
    wait(browser, 30).until(lambda d: d.current_url.split("?")[0].endswith(f"/products/{product['id']}"))
    assert browser.find_element(By.CSS_SELECTOR, '[role="status"]').text
    detail = panel.product(product["id"]).json()
    assert detail["name"] == "Two-photo chair, oak"
    assert detail["thumbnail"] == second_image["thumbnail_url"]


def test_delete_asks_for_the_password_again_when_wrong(panel, browser):
    product = panel.register("Delete me gently")
    browser.get(f"{panel.url}/products/{product['id']}")
    opener = browser.find_element(By.CSS_SELECTOR, "[data-delete-open], a[href$='/delete'], button[data-delete]")
    opener.click()
    dialog = browser.find_element(By.CSS_SELECTOR, "dialog[data-delete-dialog]")
    wait(browser).until(lambda d: dialog.get_attribute("open") is not None)
    password = dialog.find_element(By.NAME, "password")
    wait(browser).until(lambda d: d.switch_to.active_element == password)   # focus moved into the dialog
    password.send_keys("not-the-password")
    submit(dialog.find_element(By.TAG_NAME, "form"))
    wait(browser, 30).until(EC.presence_of_element_located((By.CSS_SELECTOR, '[role="alert"]')))
    assert "not-the-password" not in browser.page_source
    assert panel.product(product["id"]).status_code == 200

    field = browser.find_element(By.NAME, "password")
    if not field.is_displayed():       # the page came back with the dialog closed: open it again
        browser.find_element(By.CSS_SELECTOR, "[data-delete-open], a[href$='/delete'], button[data-delete]").click()
    field = browser.find_element(By.NAME, "password")
    wait(browser).until(lambda d: field.is_displayed())
    field.send_keys(SECRET)
    submit(field.find_element(By.XPATH, "./ancestor::form"))
    wait(browser, 30).until(lambda d: d.current_url.split("?")[0].endswith("/products"))
    assert browser.find_element(By.CSS_SELECTOR, '[role="status"]').text
    assert panel.product(product["id"]).status_code == 404
