import Foundation

/// A calendar day in UTC: the API's dates have day precision (the time is always 00:00:00).
/// Kept as its stored text "yyyy-MM-dd", so reading a row and writing JSON never re-formats it.
struct Day: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// "yyyy-MM-dd", the stored form and the start of both dialects' date strings.
    let description: String

    init(year: Int, month: Int, day: Int) {
        func padded(_ number: Int, _ width: Int) -> String {
            let text = String(number)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        description = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Accepts the stored form "yyyy-MM-dd" (digits and dashes in place), nothing else.
    init?(stored text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 else { return nil }
        for (index, byte) in bytes.enumerated() {
            let isDash = index == 4 || index == 7
            guard isDash ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                return nil
            }
        }
        description = text
    }

    /// Today in UTC.
    static func today(_ now: Date = Date()) -> Day {
        var seconds = time_t(now.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// The text is zero-padded and fixed-width, so text order is day order.
    static func < (lhs: Day, rhs: Day) -> Bool { lhs.description < rhs.description }
}
