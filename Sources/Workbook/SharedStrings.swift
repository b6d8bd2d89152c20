/// `xl/sharedStrings.xml`: the workbook's strings, which cells name by index. Only the strings
/// the chosen sheet uses are kept (a workbook's other sheets may hold far more). A string is its
/// `<t>`, or the `<t>` of each rich-text run joined; phonetic guides (`<rPh>`) are left out.
struct SharedStrings {
    private(set) var strings: [Int: String] = [:]

    init(part: String, in archive: ZipArchive, needed: Set<Int>, textBytesSoFar: Int,
         limits: WorkbookLimits) throws(WorkbookFailure) {
        let handler = Handler(needed: needed, textBytes: textBytesSoFar, limit: limits.maxCellTextBytes)
        guard try XMLPart.read(part, from: archive, into: handler) else { throw .damaged(part: part) }
        strings = handler.strings
    }

    private final class Handler: XMLEventHandler {
        let needed: Set<Int>
        let limit: Int
        var textBytes: Int
        var strings: [Int: String] = [:]

        private var index = -1
        private var inItem = false
        private var inPhonetic = false
        private var capturing = false
        private var text: [UInt8] = []

        init(needed: Set<Int>, textBytes: Int, limit: Int) {
            self.needed = needed
            self.textBytes = textBytes
            self.limit = limit
        }

        func start(_ name: String, _ attributes: XMLAttributes) throws(WorkbookFailure) {
            switch name {
            case "si":
                index += 1
                inItem = needed.contains(index)
                text.removeAll(keepingCapacity: true)
            case "rPh": inPhonetic = true
            case "t" where inItem && !inPhonetic: capturing = true
            default: break
            }
        }

        func end(_ name: String) throws(WorkbookFailure) {
            switch name {
            case "t": capturing = false
            case "rPh": inPhonetic = false
            case "si" where inItem:
                inItem = false
                let string = CellText.unescaped(String(decoding: text, as: UTF8.self))
                textBytes += string.utf8.count
                guard textBytes <= limit else { throw .tooMuchText(maxBytes: limit) }
                strings[index] = string
            default: break
            }
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(WorkbookFailure) {
            guard capturing else { return }
            text.append(contentsOf: bytes)
            guard textBytes + text.count <= limit else { throw .tooMuchText(maxBytes: limit) }
        }
    }
}
