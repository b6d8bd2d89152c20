/// Which cell styles (`s="N"`, an index into `styles.xml`'s `cellXfs`) show a number as a date or
/// time. Only that is needed: a date is a number underneath, and the sheet says "date" nowhere else.
struct CellStyles {
    private(set) var dateStyles: Set<Int> = []

    init() {}

    init(part: String, in archive: ZipArchive) throws(WorkbookFailure) {
        let handler = Handler()
        try XMLPart.read(part, from: archive, into: handler)
        for (index, format) in handler.styleFormats.enumerated() {
            if Self.isDateFormat(id: format, code: handler.codes[format]) { dateStyles.insert(index) }
        }
    }

    func isDate(style: Int) -> Bool { dateStyles.contains(style) }

    /// Built-in formats that are dates or times: 14–22 and 45–47 everywhere, 27–36 and 50–58 in
    /// East Asian versions of Excel (Korean Excel writes `yyyy"년" m"월" d"일"` as 31).
    static func isDateFormat(id: Int, code: String?) -> Bool {
        if let code { return isDateCode(code) }
        return (14...22).contains(id) || (27...36).contains(id) || (45...47).contains(id) || (50...58).contains(id)
    }

    /// A custom format is a date when, outside quoted text, escapes and `[…]` sections (colours,
    /// locales, conditions), it has a y, m, d, h or s. An elapsed time (`[h]:mm`) counts too.
    static func isDateCode(_ code: String) -> Bool {
        var quoted = false
        var bracket: String?
        var skipNext = false
        for character in code.lowercased() {
            if skipNext { skipNext = false; continue }
            if quoted { if character == "\"" { quoted = false }; continue }
            if let inside = bracket {
                guard character == "]" else { bracket = inside + String(character); continue }
                // `[h]`, `[mm]`, `[ss]`: elapsed time. `[Red]`, `[Magenta]`, `[$-412]`: not dates.
                if !inside.isEmpty, inside.allSatisfy({ "hms".contains($0) }) { return true }
                bracket = nil
                continue
            }
            switch character {
            case "\"": quoted = true
            case "[": bracket = ""
            // `\x` shows x; `_x` leaves x's width; `*x` fills with x.
            case "\\", "_", "*": skipNext = true
            // A section for text only (`@`) or general numbers is never a date.
            case "y", "m", "d", "h", "s": return true
            default: continue
            }
        }
        return false
    }

    private final class Handler: XMLEventHandler {
        var codes: [Int: String] = [:]
        /// Each cell style's number format id, in order.
        var styleFormats: [Int] = []
        private var inCellStyles = false

        func start(_ name: String, _ attributes: XMLAttributes) throws(WorkbookFailure) {
            switch name {
            case "numFmt":
                if let id = attributes["numFmtId"].flatMap({ Int($0) }), let code = attributes["formatCode"] { codes[id] = code }
            case "cellXfs":
                inCellStyles = true
            case "xf" where inCellStyles:
                styleFormats.append(attributes["numFmtId"].flatMap { Int($0) } ?? 0)
            default: break
            }
            // Excel's own limit is 64,000 styles.
            if styleFormats.count > 100_000 || codes.count > 100_000 { throw .damaged(part: "styles") }
        }

        func end(_ name: String) throws(WorkbookFailure) {
            if name == "cellXfs" { inCellStyles = false }
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(WorkbookFailure) {}
    }
}
