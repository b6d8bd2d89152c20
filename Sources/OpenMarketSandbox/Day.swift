import Foundation

/// A calendar day in UTC: the API's dates have day precision (the time is always 00:00:00).
struct Day: Sendable, Equatable, Comparable, CustomStringConvertible {
    var year: Int
    var month: Int
    var day: Int

    /// Today in UTC.
    static func today(_ now: Date = Date()) -> Day {
        var seconds = time_t(now.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// Parses the stored form "yyyy-MM-dd".
    init?(stored text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// "yyyy-MM-dd", the stored form and the start of both dialects' date strings.
    var description: String {
        let yyyy = String(year).leftPadded(to: 4)
        return "\(yyyy)-\(String(month).leftPadded(to: 2))-\(String(day).leftPadded(to: 2))"
    }

    static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
