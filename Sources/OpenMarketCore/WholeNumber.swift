import Foundation

/// The one home of conversions from `Double` to whole numbers. `Int(someDouble)` traps on NaN,
/// infinities and anything beyond `Int`'s range, and doubles here come from API answers, forms
/// and clocks — a v1 item priced 9223372036854775807 once took the whole panel down. So no code
/// outside this file converts a Double to an integer type (a test in `AdminPanelTests`,
/// `NumberConversionRuleTests`, checks Sources for it); it asks here, and says which answer
/// it wants for values that do not fit.
public enum WholeNumber {
    /// The whole number `value` is exactly; nil for fractions, NaN, infinities and values beyond `Int`.
    public static func exact(_ value: Double) -> Int? {
        Int(exactly: value)
    }

    /// `value` rounded (to nearest, or as `rule` says), then clamped into `Int`'s range; NaN is 0.
    /// For durations, counts and amounts where "as large as possible" is an honest answer.
    public static func clamped(_ value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded(rule)
        // 2^63 is the first Double beyond Int.max (Int.max itself has no exact Double).
        if rounded >= 9_223_372_036_854_775_808.0 { return Int.max }
        if rounded < -9_223_372_036_854_775_808.0 { return Int.min }
        return Int(exactly: rounded) ?? 0
    }

    /// `value` as digits without a fraction when it is a whole number small enough to print
    /// exactly (below 10^15), else nil: the caller then prints the Double as it is.
    public static func plainDigits(_ value: Double) -> String? {
        guard value == value.rounded(), abs(value) < 1e15, let whole = Int(exactly: value) else { return nil }
        return String(whole)
    }

    /// Milliseconds in `seconds`, for sleeps and deadlines: never negative, at most a day.
    public static func milliseconds(_ seconds: TimeInterval) -> Int {
        clamped(min(max(0, seconds.isNaN ? 0 : seconds), 86_400) * 1000)
    }
}
