"""People in a real browser: setup → invite → an editor signs in and registers; a viewer sees no
write controls; the activity log and a product's history show an edit."""
import re
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import make_browser, png, write_file


def wait(driver, seconds=30):
    return WebDriverWait(driver, seconds)


def fill_and_submit(driver, fields, form_selector="main form.product-form"):
    form = driver.find_element(By.CSS_SELECTOR, form_selector)
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        if field.tag_name == "select":
            field.find_element(By.CSS_SELECTOR, f'option[value="{value}"]').click()
        else:
            field.clear()
            field.send_keys(value)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def invite(driver, panel, name, role):
    driver.get(panel.url + "/people")
    fill_and_submit(driver, {"name": name, "role": role}, 'form[action="/people"]')
    link = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-invitation-url]"))
    return link.get_attribute("value")


def test_setup_invite_editor_registers_viewer_reads_and_history_shows_the_edit(signed_panel, browser):
    panel = signed_panel
    # The owner sets up the panel with the printed link.
    browser.get(panel.setup_link())
    fill_and_submit(browser, {"name": "boss", "password": "owner-password-1", "password_confirm": "owner-password-1"})
    wait(browser).until(lambda d: d.current_url.endswith("/products"))
    editor_link = invite(browser, panel, "mina", "editor")
    viewer_link = invite(browser, panel, "jun", "viewer")
    assert browser.find_elements(By.CSS_SELECTOR, '[data-person="mina"]')

    editor = make_browser()
    viewer = make_browser()
    try:
        # The editor chooses a password, signs out, signs in again and registers a product.
        editor.get(editor_link)
        fill_and_submit(editor, {"password": "mina-password-1", "password_confirm": "mina-password-1"})
        wait(editor).until(lambda d: d.current_url.endswith("/products"))
        editor.find_element(By.CSS_SELECTOR, 'form[action="/logout"] button').click()
        wait(editor).until(lambda d: "/login" in d.current_url)
        fill_and_submit(editor, {"name": "mina", "password": "mina-password-1"})
        wait(editor).until(lambda d: d.current_url.endswith("/products"))
        with tempfile.TemporaryDirectory() as folder:
            image = write_file(folder, "mug.png", png(40, 40, seed=5))
            editor.get(panel.url + "/products/new")
            form = editor.find_element(By.CSS_SELECTOR, 'form[enctype="multipart/form-data"]')
            form.find_element(By.NAME, "name").send_keys("Team mug")
            form.find_element(By.NAME, "description").send_keys("A mug registered by an invited editor.")
            form.find_element(By.NAME, "price").send_keys("15000")
            form.find_element(By.NAME, "stock").send_keys("4")
            form.find_element(By.NAME, "images").send_keys(image)
            form.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name])").click()
            wait(editor, 60).until(lambda d: re.search(r"/products/\d+$", d.current_url.split("?")[0]))
        product_url = editor.current_url.split("?")[0]

        # The editor changes the price: the edit is logged field by field.
        editor.get(product_url + "/edit")
        price = editor.find_element(By.NAME, "price")
        price.clear()
        price.send_keys("17000")
        editor.find_element(By.CSS_SELECTOR, 'main form button[type=submit]:not([name])').click()
        wait(editor, 60).until(lambda d: d.current_url.split("?")[0] == product_url)

        # The viewer sees the product but no write control at all.
        viewer.get(viewer_link)
        fill_and_submit(viewer, {"password": "jun-password-1", "password_confirm": "jun-password-1"})
        wait(viewer).until(lambda d: d.current_url.endswith("/products"))
        assert not viewer.find_elements(By.CSS_SELECTOR, 'a[href="/products/new"]')
        # (the discounted-only filter is a checkbox too, but it writes nothing)
        assert not viewer.find_elements(By.CSS_SELECTOR, 'input[type="checkbox"][name="ids"], form[data-bulk]')
        viewer.get(product_url)
        assert viewer.find_element(By.CSS_SELECTOR, "h1").text == "Team mug"
        assert not viewer.find_elements(By.CSS_SELECTOR, 'a[href$="/edit"], a[href$="/delete"], [data-delete-dialog]')
        assert not viewer.find_elements(By.CSS_SELECTOR, 'main form[method="post"]')

        # The history on the product page and /activity both show the edit, old → new.
        history = viewer.find_element(By.CSS_SELECTOR, "[data-history]")
        edit_row = history.find_element(By.CSS_SELECTOR, '[data-activity][data-action="edit"]')
        # Money as money (₩15,000), the product by its name.
        assert "mina" in edit_row.text and "₩15,000" in edit_row.text and "₩17,000" in edit_row.text
        assert "“Team mug”" in edit_row.text
        assert history.find_elements(By.CSS_SELECTOR, '[data-activity][data-action="register"]')
        viewer.get(panel.url + "/activity?action=edit")
        rows = viewer.find_elements(By.CSS_SELECTOR, '[data-activity][data-action="edit"]')
        assert rows and "₩17,000" in rows[0].text
    finally:
        editor.quit()
        viewer.quit()
