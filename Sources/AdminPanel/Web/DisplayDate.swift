import Foundation

/// Dates as the API gives them have day precision (UTC): their parts (which `Localizer.date`
/// writes in the reader's language) and an ISO form for `<time datetime>`.
enum DisplayDate {
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

    static func iso(_ date: Date) -> String {
        let (year, month, day) = parts(date)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
