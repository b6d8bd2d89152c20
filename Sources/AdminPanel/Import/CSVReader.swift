/// RFC 4180 records from spreadsheet text: quoted cells may hold separators, quotes (`""`) and
/// line breaks; each record remembers the file line it starts on (what a seller sees in the
/// preview). The separator is the one of `,` `;` tab that the header line uses most (Excel in a
/// German or French locale writes `;`, "Text (Tab delimited)" writes tabs).
///
/// It works on UTF-8 bytes: every byte it looks for is ASCII, which never occurs inside a
/// multi-byte character, so a 5 MiB file is read in one pass without `Character` iteration.
struct CSVReader {
    struct Record: Sendable, Equatable {
        /// The file line (1-based) where the record starts.
        var line: Int
        var cells: [String]
    }

    enum Failure: Error, Equatable {
        case tooManyColumns(line: Int, max: Int)
        case tooManyRecords(max: Int)
        case unterminatedQuote(line: Int)
    }

    var maxColumns = 100
    /// Records including the header.
    var maxRecords = 1_001

    static func separator(of text: String) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var quoted = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { quoted.toggle(); continue }
            if !quoted, byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if !quoted, counts[byte] != nil { counts[byte]! += 1 }
        }
        let best = counts.max { lhs, rhs in lhs.value < rhs.value || lhs.value == rhs.value && lhs.key != UInt8(ascii: ",") }!
        return best.value > 0 ? best.key : UInt8(ascii: ",")
    }

    /// Every non-blank record. Blank lines and rows of empty cells are skipped.
    func read(_ text: String) throws(Failure) -> [Record] {
        var separator = Self.separator(of: text)
        let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var bytes = Array(text.utf8)
        bytes.append(lf)  // every record ends with a line break
        var line = 1
        var index = 0
        // Excel's own hint line `sep=;` names the separator; it is no record.
        if bytes.count >= 6, bytes[0...3] == [0x73, 0x65, 0x70, 0x3D], bytes[5] == cr || bytes[5] == lf {
            separator = bytes[4]
            index = bytes[5] == cr && bytes.count > 6 && bytes[6] == lf ? 7 : 6
            line = 2
        }
        var records: [Record] = []
        var cells: [String] = []
        var cell: [UInt8] = []
        var recordLine = line
        var quoted = false
        var quoteLine = 1
        let count = bytes.count

        func endCell() throws(Failure) {
            cells.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
            if cells.count > maxColumns { throw .tooManyColumns(line: recordLine, max: maxColumns) }
        }

        while index < count {
            let byte = bytes[index]
            if quoted {
                if byte == quote {
                    if index + 1 < count, bytes[index + 1] == quote {
                        cell.append(quote)
                        index += 2
                        continue
                    }
                    quoted = false
                } else {
                    if byte == lf || (byte == cr && !(index + 1 < count && bytes[index + 1] == lf)) { line += 1 }
                    cell.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case quote where cell.isEmpty:
                quoted = true
                quoteLine = line
            case separator:
                try endCell()
            case cr, lf:
                if byte == cr, index + 1 < count, bytes[index + 1] == lf { index += 1 }
                try endCell()
                // Spreadsheets leave rows of empty cells (`,,,,`) below the data: not records.
                let blank = cells.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } }
                if !blank {
                    records.append(Record(line: recordLine, cells: cells))
                    if records.count > maxRecords { throw .tooManyRecords(max: maxRecords - 1) }
                }
                cells.removeAll(keepingCapacity: true)
                line += 1
                recordLine = line
            default:
                cell.append(byte)
            }
            index += 1
        }
        if quoted { throw .unterminatedQuote(line: quoteLine) }
        return records
    }

    /// The export writes `'` before a cell a spreadsheet would run as a formula; reading drops it
    /// again, so export → spreadsheet → import gives back the same text.
    static func unprotected(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let second = cell.unicodeScalars.dropFirst().first,
              ["=", "+", "-", "@", "\t", "\r"].contains(second) else { return cell }
        return String(cell.dropFirst())
    }
}
