#!/usr/bin/env python3
"""Writes the workbooks the Workbook tests read, with writers independent of the project:
openpyxl for ordinary workbooks, Python's zipfile with hand-written XML for what openpyxl
cannot write (cached formula values, inline strings, hostile parts), and LibreOffice when it
is installed (real formula results computed by a spreadsheet).

    python3 Tests/WorkbookTests/Fixtures/make_fixtures.py

The files are committed; the Swift tests never run Python. Run this again only to change them.
"""
import datetime
import os
import shutil
import struct
import subprocess
import tempfile
import zipfile

import openpyxl
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Workbooks")
FIXED_TIME = (2026, 11, 27, 0, 0, 0)


def out(name):
    return os.path.join(HERE, name)


# ---------------------------------------------------------------- openpyxl workbooks

def numbers():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "products"
    sheet.append(["id", "name", "price", "currency", "discounted_price", "stock", "rate", "active"])
    sheet.append([1, "Tumbler", 12000, "KRW", 1000, 50, 0.5, True])
    sheet.append([2, "Mug", 12.5, "USD", 0, 3, 0.00001, False])
    sheet.append([3, "Bulk", 12000.0, "KRW", 0, 1000000, -2.25, None])
    sheet.append([4, "=not a formula", 9007199254740993, "KRW", 0, 0, 0.1, None])
    sheet["B5"].data_type = "s"  # openpyxl would write a string starting with = as a formula
    book.save(out("numbers.xlsx"))


def korean():
    book = openpyxl.Workbook()
    notes = book.active
    notes.title = "안내"
    notes.append(["이 시트는 읽지 않습니다"])
    sheet = book.create_sheet("상품")
    sheet.append(["id", "name", "price", "created_at"])
    sheet.append([None, "제주 녹차 텀블러", 15000, datetime.datetime(2026, 11, 27)])
    rich = CellRichText(["무선 ", TextBlock(InlineFont(b=True), "이어폰")])
    sheet.append([None, rich, 39000, datetime.datetime(2026, 11, 27, 9, 30)])
    sheet["D2"].number_format = "yyyy-mm-dd"
    book.save(out("korean.xlsx"))


def sheet_choice():
    book = openpyxl.Workbook()
    book.active.title = "Notes"
    book.active.append(["read me first"])
    products = book.create_sheet("Products")
    products.append(["id", "name"])
    products.append([7, "chosen by name"])
    book.save(out("sheet-named-products.xlsx"))

    book = openpyxl.Workbook()
    book.active.title = "Sheet A"
    book.active.append(["id", "name"])
    book.active.append([1, "first sheet"])
    other = book.create_sheet("Sheet B")
    other.append(["id", "name"])
    other.append([2, "second sheet"])
    book.save(out("sheet-first.xlsx"))


def rows(count, name):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "products"
    sheet.append(["id", "name", "description", "price", "currency", "stock"])
    for index in range(count):
        sheet.append([None, f"Product {index + 1}", f"Row {index + 2} of a large sheet", 1000 + index, "KRW", index])
    book.save(out(name))


def columns(count, name):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "products"
    sheet.append([f"c{index}" for index in range(1, count + 1)])
    sheet.append(list(range(1, count + 1)))
    book.save(out(name))


# ---------------------------------------------------------------- hand-written packages

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
</Types>"""

ROOT_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' \
     'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def package(name, sheets, shared_strings=None, styles=None, prologue="", workbook_prologue=""):
    """sheets: [(sheet name, sheetData inner XML or None for a chart sheet)]."""
    entries = {"[Content_Types].xml": CONTENT_TYPES, "_rels/.rels": ROOT_RELS}
    sheet_list, rels = [], []
    for index, (title, data) in enumerate(sheets, start=1):
        kind = "worksheet" if data is not None else "chartsheet"
        folder = "worksheets" if data is not None else "chartsheets"
        sheet_list.append(f'<sheet name="{title}" sheetId="{index}" r:id="rId{index}"/>')
        rels.append(f'<Relationship Id="rId{index}" Type="{REL}{kind}" Target="{folder}/sheet{index}.xml"/>')
        if data is not None:
            entries[f"xl/worksheets/sheet{index}.xml"] = \
                f'<?xml version="1.0" encoding="UTF-8"?>{prologue}<worksheet {NS}><sheetData>{data}</sheetData></worksheet>'
        else:
            entries[f"xl/chartsheets/sheet{index}.xml"] = f'<?xml version="1.0"?><chartsheet {NS}/>'
    if shared_strings is not None:
        rels.append(f'<Relationship Id="rId100" Type="{REL}sharedStrings" Target="sharedStrings.xml"/>')
        items = "".join(shared_strings)
        entries["xl/sharedStrings.xml"] = f'<?xml version="1.0"?><sst {NS} count="{len(shared_strings)}">{items}</sst>'
    if styles is not None:
        rels.append(f'<Relationship Id="rId101" Type="{REL}styles" Target="/xl/styles.xml"/>')
        entries["xl/styles.xml"] = f'<?xml version="1.0"?><styleSheet {NS}>{styles}</styleSheet>'
    entries["xl/workbook.xml"] = \
        f'<?xml version="1.0" encoding="UTF-8"?>{workbook_prologue}<workbook {NS}><sheets>{"".join(sheet_list)}</sheets></workbook>'
    entries["xl/_rels/workbook.xml.rels"] = \
        f'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{"".join(rels)}</Relationships>'
    write_zip(name, entries)


def write_zip(name, entries, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(out(name), "w", compression) as archive:
        for part, text in entries.items():
            info = zipfile.ZipInfo(part, FIXED_TIME)
            info.compress_type = compression
            archive.writestr(info, text.encode("utf-8") if isinstance(text, str) else text)


def formulas():
    # Formulas with the values a spreadsheet cached when it last calculated them.
    data = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>'
        '<c r="D1" t="s"><v>3</v></c></row>'
        '<row r="2"><c r="A2"><v>5</v></c><c r="B2"><f>A2*2400</f><v>12000</v></c>'
        '<c r="C2" t="str"><f>"Tumbler "&amp;A2</f><v>Tumbler 5</v></c><c r="D2" t="b"><f>A2&gt;3</f><v>1</v></c></row>'
        '<row r="3"><c r="A3"><v>1</v></c><c r="B3"><f>A3/4</f><v>0.25</v></c>'
        '<c r="C3" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="D3"><f>A3*0</f><v>0</v></c></row>'
        '<row r="4"><c r="A4"><v>2</v></c><c r="B4"><f>A4*1000</f></c></row>'
    )
    strings = [f"<si><t>{text}</t></si>" for text in ["id", "price", "name", "flag"]]
    package("formulas.xlsx", [("products", data)], shared_strings=strings)


def inline_strings():
    data = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c>'
        '<c r="C1" t="inlineStr"><is><t>description</t></is></c></row>'
        '<row r="2"><c r="A2"><v>12</v></c><c r="B2" t="inlineStr"><is><r><t>Rich </t></r><r><rPr><b/></rPr><t>run</t></r></is></c>'
        '<c r="C2" t="inlineStr"><is><t xml:space="preserve">line one_x000D_\nline two  </t></is></c></row>'
        '<row r="3"><c r="A3"><v>13</v></c><c r="B3" t="inlineStr"><is><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh></is></c>'
        '<c r="C3" t="inlineStr"><is><t>_x005F_x0041_ stays text</t></is></c></row>'
    )
    package("inline-strings.xlsx", [("products", data)])


def shared_strings():
    # openpyxl writes inline strings; Excel and LibreOffice write a shared table like this one:
    # plain, rich-text runs, a phonetic guide, an escape, Korean, and strings no cell uses.
    strings = [
        "<si><t>id</t></si>", "<si><t>name</t></si>", "<si><t>unused by the sheet</t></si>",
        "<si><r><t xml:space=\"preserve\">무선 </t></r><r><rPr><b/><sz val=\"11\"/></rPr><t>이어폰</t></r></si>",
        "<si><t>東京</t><rPh sb=\"0\" eb=\"2\"><t>とうきょう</t></rPh><phoneticPr fontId=\"1\"/></si>",
        "<si><t>tab_x0009_inside</t></si>",
        "<si><t/></si>",
    ]
    data = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
        '<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>3</v></c></row>'
        '<row r="3"><c r="A3"><v>2</v></c><c r="B3" t="s"><v>4</v></c></row>'
        '<row r="4"><c r="A4"><v>3</v></c><c r="B4" t="s"><v>5</v></c><c r="C4" t="s"><v>6</v></c></row>'
    )
    package("shared-strings.xlsx", [("상품", data)], shared_strings=strings)
    package("shared-string-missing.xlsx", [("products", '<row r="1"><c r="A1" t="s"><v>9</v></c></row>')],
            shared_strings=strings)


def cell_references():
    # Cells placed by their references: gaps, rows out of order, a cell with no reference, a
    # formatted cell without a value, a row of blanks, and a formatted row far below.
    data = (
        '<row r="3"><c r="A3"><v>3</v></c><c r="E3"><v>33</v></c></row>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="C1" t="inlineStr"><is><t>price</t></is></c></row>'
        '<row r="2"><c r="A2"><v>2</v></c><c><v>20</v></c><c r="C2" s="0"/></row>'
        '<row r="5"><c r="B5" t="inlineStr"><is><t>   </t></is></c></row>'
        '<row r="7"><c r="$B$7"><v>7</v></c></row>'
        '<row r="4000"><c r="A4000" s="1"/></row>'
    )
    package("cell-references.xlsx", [("products", data)])


def dates():
    styles = ('<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy&quot;년&quot; m&quot;월&quot; d&quot;일&quot;"/>'
              '<numFmt numFmtId="165" formatCode="[Red]#,##0;[Magenta]\\-#,##0"/></numFmts>'
              '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>'
              '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/></cellXfs>')
    data = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>price</t></is></c><c r="B1" t="inlineStr"><is><t>created_at</t></is></c>'
        '<c r="C1" t="inlineStr"><is><t>issued_at</t></is></c></row>'
        '<row r="2"><c r="A2" s="3"><v>12000</v></c><c r="B2" s="1"><v>46353</v></c><c r="C2" s="2"><v>46353.75</v></c></row>'
    )
    package("dates.xlsx", [("products", data)], styles=styles)


def refusals():
    laughs = ('<!DOCTYPE lolz [<!ENTITY lol "lol">'
              + "".join(f'<!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">' for n in range(1, 10))
              + "]>")
    package("billion-laughs.xlsx", [("products", '<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row>')],
            prologue=laughs)
    package("xxe.xlsx", [("products", '<row r="1"><c r="A1" t="inlineStr"><is><t>&xxe;</t></is></c></row>')],
            prologue='<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>')
    package("xxe-parameter.xlsx", [("products", '<row r="1"><c r="A1"><v>1</v></c></row>')],
            workbook_prologue='<!DOCTYPE r [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>')
    package("undeclared-entity.xlsx", [("products", '<row r="1"><c r="A1" t="inlineStr"><is><t>&nope;</t></is></c></row>')])
    package("no-sheet.xlsx", [])
    package("chart-sheet-only.xlsx", [("Chart1", None)])

    # 60 MiB of spaces inside a sheet, deflated to a few tens of kilobytes.
    sheet = f'<?xml version="1.0"?><worksheet {NS}><sheetData>' + " " * (60 << 20) + "</sheetData></worksheet>"
    entries = {"[Content_Types].xml": CONTENT_TYPES, "_rels/.rels": ROOT_RELS,
               "xl/workbook.xml": f'<workbook {NS}><sheets><sheet name="products" sheetId="1" r:id="rId1"/></sheets></workbook>',
               "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                                             f'<Relationship Id="rId1" Type="{REL}worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
               "xl/worksheets/sheet1.xml": sheet}
    write_zip("zip-bomb.xlsx", entries)

    # The same bomb, but its sizes claim 2 KiB: inflating must stop there (the checksum fails).
    with open(out("zip-bomb.xlsx"), "rb") as f:
        raw = bytearray(f.read())
    with zipfile.ZipFile(out("zip-bomb.xlsx")) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    struct.pack_into("<I", raw, info.header_offset + 22, 2048)
    position = 0
    while True:
        position = raw.find(b"PK\x01\x02", position)
        if position < 0:
            break
        name_length = struct.unpack_from("<H", raw, position + 28)[0]
        if raw[position + 46:position + 46 + name_length] == b"xl/worksheets/sheet1.xml":
            struct.pack_into("<I", raw, position + 24, 2048)
        position += 4
    with open(out("zip-bomb-understated.xlsx"), "wb") as f:
        f.write(raw)

    # A small workbook whose end record claims 20,000 entries: refused before any is read.
    declared = bytearray(open(out("numbers.xlsx"), "rb").read())
    end = declared.rfind(b"PK\x05\x06")
    struct.pack_into("<HH", declared, end + 8, 20000, 20000)
    with open(out("entries-declared.xlsx"), "wb") as f:
        f.write(declared)

    # Entries flagged as encrypted (a password-protected zip).
    numbers_bytes = bytearray(open(out("numbers.xlsx"), "rb").read())
    position = 0
    while True:
        position = numbers_bytes.find(b"PK\x01\x02", position)
        if position < 0:
            break
        flags = struct.unpack_from("<H", numbers_bytes, position + 8)[0]
        struct.pack_into("<H", numbers_bytes, position + 8, flags | 1)
        position += 4
    with open(out("zip-encrypted-entries.xlsx"), "wb") as f:
        f.write(numbers_bytes)

    # What Excel writes for a workbook with a password: an OLE compound file.
    header = bytearray(512)
    header[0:8] = bytes.fromhex("D0CF11E0A1B11AE1")
    struct.pack_into("<HHH", header, 24, 0x3E, 3, 0xFFFE)
    with open(out("encrypted.xlsx"), "wb") as f:
        f.write(bytes(header) + bytes(1024))

    write_zip("not-a-workbook.xlsx", {"hello.txt": "Not a spreadsheet.\n"})
    write_zip("word-document.xlsx", {
        "[Content_Types].xml": CONTENT_TYPES.replace("xl/workbook.xml", "word/document.xml"),
        "_rels/.rels": ROOT_RELS.replace("xl/workbook.xml", "word/document.xml"),
        "word/document.xml": '<?xml version="1.0"?><document/>'})
    with open(out("corrupt.xlsx"), "wb") as f:
        f.write(b"PK\x03\x04" + bytes(range(256)) * 4)


def libreoffice():
    """Real files from LibreOffice Calc, when it is installed: formulas it calculated itself."""
    office = shutil.which("libreoffice") or shutil.which("soffice")
    if office is None:
        print("LibreOffice not installed: keeping the LibreOffice fixtures as they are")
        return
    with tempfile.TemporaryDirectory() as work:
        # The sheet takes the file's name: 상품.
        source = os.path.join(work, "상품.csv")
        with open(source, "w", encoding="utf-8") as f:
            f.write("id,name,price,discounted_price,stock,created_at\n")
            f.write("3,무선 이어폰,39000,=C2/10,=2*6,2026-11-27\n")
            f.write("4,Tumbler,12.5,=C3-2.5,7,2026-01-05\n")
        # Comma-separated (44), double quotes (34), UTF-8 (76), from line 1; formulas are calculated.
        subprocess.run([office, "--headless", "--infilter=CSV:44,34,76,1", "--convert-to", "xlsx", "--outdir", work, source],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.copy(os.path.join(work, "상품.xlsx"), out("libreoffice-formulas.xlsx"))

if __name__ == "__main__":
    os.makedirs(HERE, exist_ok=True)
    numbers()
    korean()
    sheet_choice()
    rows(1000, "rows-1000.xlsx")
    rows(1001, "rows-1001.xlsx")
    columns(100, "columns-100.xlsx")
    columns(101, "columns-101.xlsx")
    formulas()
    inline_strings()
    shared_strings()
    cell_references()
    dates()
    refusals()
    libreoffice()
