import Foundation
import Testing
@testable import AdminPanel

/// Reading spreadsheet files: encodings, separators, RFC 4180 quoting, the export's `'` guard.
@Suite struct CSVReaderTests {
    static func cells(_ text: String) throws -> [[String]] { try CSVReader().read(text).map(\.cells) }

    @Test func quotingKeepsSeparatorsQuotesAndLineBreaksInsideCells() throws {
        let records = try CSVReader().read("id,name,description\r\n1,\"Tea, green\",\"She said \"\"hi\"\"\nand left\"\r\n2,Plain,x\r\n")
        #expect(records.map(\.cells) == [["id", "name", "description"], ["1", "Tea, green", "She said \"hi\"\nand left"],
                                         ["2", "Plain", "x"]])
        // The record after a two-line cell starts on file line 4.
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func separatorsAreDetectedFromTheHeader() throws {
        #expect(try Self.cells("a;b;c\n1;2,5;3\n") == [["a", "b", "c"], ["1", "2,5", "3"]])
        #expect(try Self.cells("a\tb\n1\t2\n") == [["a", "b"], ["1", "2"]])
        #expect(try Self.cells("a,b\n1,2\n") == [["a", "b"], ["1", "2"]])
        // A quoted header cell holding a semicolon does not make `;` the separator.
        #expect(try Self.cells("\"a;x\",b\n1,2") == [["a;x", "b"], ["1", "2"]])
        // Excel's `sep=` hint line names the separator and is not a record (lines still count it).
        let hinted = try CSVReader().read("sep=;\r\na;b\r\n1;2\r\n")
        #expect(hinted.map(\.cells) == [["a", "b"], ["1", "2"]])
        #expect(hinted.map(\.line) == [2, 3])
    }

    @Test func blankLinesAreSkippedAndLastLineNeedsNoBreak() throws {
        let records = try CSVReader().read("a,b\n\n1,2\n,\n \t, \n3,4")
        #expect(records.map(\.cells) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(records.map(\.line) == [1, 3, 6])
    }

    @Test func refusesHugeRowsManyRecordsAndOpenQuotes() {
        let wide = "a\n" + String(repeating: "x,", count: 9_999) + "x\n"
        #expect(throws: CSVReader.Failure.tooManyColumns(line: 2, max: 100)) { try CSVReader().read(wide) }
        let long = "a\n" + String(repeating: "1\n", count: 1_001)
        #expect(throws: CSVReader.Failure.tooManyRecords(max: 1_000)) { try CSVReader().read(long) }
        #expect(throws: CSVReader.Failure.unterminatedQuote(line: 2)) { try CSVReader().read("a\n\"open\n\nstill") }
    }

    @Test func theExportsFormulaGuardIsDropped() {
        #expect(CSVReader.unprotected("'=SUM(A1)") == "=SUM(A1)")
        #expect(CSVReader.unprotected("'+82") == "+82")
        #expect(CSVReader.unprotected("'-5") == "-5")
        #expect(CSVReader.unprotected("'@home") == "@home")
        // Only before those characters: an apostrophe that is part of the text stays.
        #expect(CSVReader.unprotected("'Tis") == "'Tis")
        #expect(CSVReader.unprotected("Rock 'n' roll") == "Rock 'n' roll")
        // Round trip with the export's own quoting.
        #expect(CSVReader.unprotected(CatalogCSV.cell("=1+2")) == "=1+2")
    }

    @Test func decodesUTF8WithAndWithoutBOM() throws {
        let plain = Data("이름,가격\n커피,1000\n".utf8)
        #expect(try CSVTextDecoder.decode(plain) == ("이름,가격\n커피,1000\n", .utf8))
        let bom = Data([0xEF, 0xBB, 0xBF]) + plain
        #expect(try CSVTextDecoder.decode(bom).text == "이름,가격\n커피,1000\n")
    }

    @Test func decodesCP949FromKoreanExcel() throws {
        // "이름,가격\n똠양꿍,1000\n" in CP949 (똠 is one of Microsoft's extra syllables, not in EUC-KR).
        let bytes: [UInt8] = [0xC0, 0xCC, 0xB8, 0xA7, 0x2C, 0xB0, 0xA1, 0xB0, 0xDD, 0x0A,
                              0x8C, 0x63, 0xBE, 0xE7, 0xB2, 0xE1, 0x2C, 0x31, 0x30, 0x30, 0x30, 0x0A]
        let decoded = try CSVTextDecoder.decode(Data(bytes))
        #expect(decoded.encoding == .cp949)
        #expect(decoded.text == "이름,가격\n똠양꿍,1000\n")
    }

    @Test func refusesBinaryAndOtherEncodings() {
        #expect(throws: CSVTextDecoder.Failure.binary) { try CSVTextDecoder.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])) }
        #expect(throws: CSVTextDecoder.Failure.unknownEncoding) { try CSVTextDecoder.decode(Data([0xFF, 0xFE, 0x61, 0x00])) }
        // Bytes that are neither UTF-8 nor CP949 (0xFF is no lead byte in either).
        #expect(throws: CSVTextDecoder.Failure.unknownEncoding) { try CSVTextDecoder.decode(Data([0x61, 0xFF, 0xFF, 0x0A])) }
        #expect(throws: CSVTextDecoder.Failure.empty) { try CSVTextDecoder.decode(Data("\n\n".utf8)) }
    }
}
