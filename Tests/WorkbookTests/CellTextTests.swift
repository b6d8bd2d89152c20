import Testing
@testable import Workbook

@Suite struct CellTextTests {
    @Test func wholeNumbersHaveNoDecimalPoint() {
        #expect(CellText.number("12000") == "12000")
        #expect(CellText.number("12000.0") == "12000")
        #expect(CellText.number("1.2E+4") == "12000")
        #expect(CellText.number("-0") == "0")
        #expect(CellText.number("-3500") == "-3500")
    }

    @Test func fractionsAreTheShortestRoundTrip() {
        #expect(CellText.number("12.5") == "12.5")
        #expect(CellText.number("0.1") == "0.1")
        #expect(CellText.number("0.30000000000000004") == "0.30000000000000004")
        #expect(CellText.number("1E-5") == "0.00001")
        #expect(CellText.number("-2.5E-3") == "-0.0025")
        #expect(CellText.number("123456.789") == "123456.789")
    }

    @Test func hugeAndOddNumbersStayReadable() {
        #expect(CellText.number("1E+300") == "1e+300")
        #expect(CellText.number("1E+19") == "10000000000000000000")
        #expect(CellText.number(" 7 ") == "7")
        #expect(CellText.number("abc") == "abc")
        #expect(CellText.number("inf") == "inf")
    }

    @Test func booleansReadAsExcelWritesThemToCSV() {
        #expect(CellText.boolean("1") == "TRUE")
        #expect(CellText.boolean("0") == "FALSE")
        #expect(CellText.boolean("true") == "TRUE")
    }

    @Test func datesAreISOText() {
        #expect(CellText.date("46353", dates1904: false) == "2026-11-27")
        #expect(CellText.date("46353.5", dates1904: false) == "2026-11-27 12:00:00")
        #expect(CellText.date("1", dates1904: false) == "1900-01-01")
        #expect(CellText.date("59", dates1904: false) == "1900-02-28")
        #expect(CellText.date("61", dates1904: false) == "1900-03-01")
        #expect(CellText.date("25569", dates1904: false) == "1970-01-01")
        #expect(CellText.date("0", dates1904: true) == "1904-01-01")
        #expect(CellText.date("-5", dates1904: false) == "-5")
        #expect(CellText.date("99999999", dates1904: false) == "99999999")
    }

    @Test func ooxmlEscapesAreUndone() {
        #expect(CellText.unescaped("a_x000D_b") == "a\rb")
        #expect(CellText.unescaped("_x005F_x0041_") == "_x0041_")
        #expect(CellText.unescaped("snake_case_name") == "snake_case_name")
        #expect(CellText.unescaped("_xD83D__xDE00_") == "😀")
        #expect(CellText.unescaped("_xD800_") == "\u{FFFD}")
    }
}
