import Foundation

/// Dates as the API gives them have day precision (UTC); show them as "Oct 18, 2022" with an
/// ISO form for `<time datetime>`. Fixed English month names keep the output locale-independent.
enum DisplayDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Gregorian in UTC, built once (the detail page formats four dates).
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func parts(_ date: Date) -> (year: Int, month: Int, day: Int) {
        let components = calendar.dateComponents([.year, .month, .day], from: date)
        return (components.year ?? 1970, components.month ?? 1, components.day ?? 1)
    }

    static func text(_ date: Date) -> String {
        let (year, month, day) = parts(date)
        return "\(months[max(0, min(11, month - 1))]) \(day), \(year)"
    }

    static func iso(_ date: Date) -> String {
        let (year, month, day) = parts(date)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
