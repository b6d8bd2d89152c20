import Foundation

/// Reading the API's JSON in either dialect. (Writing it byte for byte is the sandbox's job.)
public enum OpenMarketJSON {
    public static func decodeListPage(_ data: Data) throws(OpenMarketError) -> ProductListPage {
        try read(data) { (json) throws(OpenMarketError) in try ProductListPage(reading: json) }
    }

    public static func decodeDetail(_ data: Data) throws(OpenMarketError) -> ProductDetail {
        try read(data) { (json) throws(OpenMarketError) in try ProductDetail(reading: json) }
    }

    /// Reads a model from the answer's top-level object, straight from the bytes (see
    /// `JSONObjectReader`; not through `JSONDecoder`, nor through a `JSONValue` tree).
    /// `path` is the document's own path in errors ("" unless `Decodable` nests it).
    static func read<Model>(_ data: Data, path: String = "",
                            _ model: (JSONObjectReader) throws(OpenMarketError) -> Model) throws(OpenMarketError) -> Model {
        // Data's bytes are untyped memory: bound to UInt8 for the readers (see `JSONCursor`).
        let result = data.withUnsafeBytes { raw -> Result<Model, OpenMarketError> in
            Result { () throws(OpenMarketError) in
                try model(JSONObjectReader.document(raw.bindMemory(to: UInt8.self), location: JSONLocation(path)))
            }
        }
        return try result.get()
    }

    /// Through the models' `Decodable` conformance (what a `JSONDecoder` user gets); the tests
    /// check it agrees with the direct path.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(OpenMarketError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            // The models report through `DecodableModel`; anything else is the syntax.
            if case DecodingError.dataCorrupted(let context) = error,
               let reported = context.underlyingError as? OpenMarketError { throw reported }
            throw .undecodable(path: "", reason: "the answer is not valid JSON")
        }
    }

    static func keyPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    // MARK: Dates

    /// Parses `2022-01-04T00:00:00.00` (v2a), `2022-11-16T00:00:00` (v2b), any fraction length,
    /// an optional trailing `Z`, or a bare `2022-11-16`. Always UTC. Invalid calendar dates → nil.
    public static func parseDate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parseDate($0) }
    }

    /// The same, from the bytes of a JSON string without escapes (no string built): every date
    /// of a list page goes through here. Reads only below `b.count` (`number` checks the range).
    static func parseDate(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var value = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
        guard b.count >= 10, let year = number(0..<4), b[4] == dash, let month = number(5..<7),
              b[7] == dash, let day = number(8..<10) else { return nil }
        var hour = 0, minute = 0, second = 0, fraction = 0.0
        var i = 10
        if i < b.count {
            guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " "),
                  let h = number(11..<13), b.count > 16, b[13] == colon, let m = number(14..<16),
                  b[16] == colon, let s = number(17..<19) else { return nil }
            (hour, minute, second) = (h, m, s)
            i = 19
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                var scale = 0.1
                let start = i
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                    fraction += Double(b[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
            }
            if i < b.count, b[i] == UInt8(ascii: "Z") { i += 1 }
        }
        guard i == b.count, (1...12).contains(month), day >= 1, day <= daysInMonth(month, year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Writes a date the way the dialect's server did: v2a `2022-01-04T00:00:00.00`,
    /// v2b `2022-11-16T00:00:00` (UTC, whole seconds).
    public static func formatDate(_ date: Date, dialect: Dialect) -> String {
        let total = WholeNumber.clamped(date.timeIntervalSince1970, rounding: .down)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(22)
        func digits(_ value: Int, _ width: Int) {
            var text = Array(String(value).utf8)
            if text.count < width { text.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - text.count), at: 0) }
            bytes.append(contentsOf: text)
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-")); digits(month, 2)
        bytes.append(UInt8(ascii: "-")); digits(day, 2)
        bytes.append(UInt8(ascii: "T")); digits(secondsOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":")); digits(secondsOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":")); digits(secondsOfDay % 60, 2)
        if dialect == .v2a { bytes.append(contentsOf: ".00".utf8) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func daysInMonth(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar, 1970-01-01 = day 0).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
