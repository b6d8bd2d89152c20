import Foundation
import Testing
import OpenMarketCore
@testable import AdminPanel

/// The rule a reviewer can check: no code that handles API answers, forms, cookies or files
/// converts a `Double` to an integer type itself — `Int(double)` traps on NaN, infinities and
/// anything beyond `Int` — it asks `WholeNumber` (OpenMarketCore/WholeNumber.swift), the one
/// file allowed to. The scan is by text: an integer conversion whose argument mentions a
/// floating-point idea (rounding, Double, prices, amounts, times) outside that file fails here.
@Suite struct NumberConversionRuleTests {
    static let scannedTargets = ["AdminPanel", "OpenMarketCore", "OpenMarketSandbox"]
    static let helperFile = "WholeNumber.swift"
    static let floatingHints = ["rounded", "Double", "price", "Price", "amount", "interval", "Interval", "seconds",
                                "wait", "timeout", "Timeout", "scaled", "retryAfter", "Limit", "Window", "timeInterval",
                                "percent", "factor", "ratio"]

    /// `(Int|Int64|…)(` calls, with the text of their argument, that are not `exactly:` or
    /// bit-level conversions.
    static func suspiciousConversions(in text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\b(U?Int(8|16|32|64)?)\((?!exactly:|bitPattern:|truncatingIfNeeded:|clamping:)"#)
        let bytes = Array(text.utf8)
        var found: [String] = []
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            var index = text.utf8.distance(from: text.utf8.startIndex, to: range.upperBound.samePosition(in: text.utf8)!)
            var depth = 1
            let start = index
            while index < bytes.count, depth > 0 {
                if bytes[index] == UInt8(ascii: "(") { depth += 1 }
                if bytes[index] == UInt8(ascii: ")") { depth -= 1 }
                index += 1
            }
            let argument = String(decoding: bytes[start..<max(start, index - 1)], as: UTF8.self)
            if floatingHints.contains(where: { argument.contains($0) }) { found.append(String(text[range]) + argument + ")") }
        }
        return found
    }

    @Test func noDoubleBecomesAnIntegerOutsideTheHelper() throws {
        let sources = PanelHarness.repository.appendingPathComponent("Sources")
        var offenders: [String] = []
        var scanned = 0
        for target in Self.scannedTargets {
            let folder = sources.appendingPathComponent(target)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", file.lastPathComponent != Self.helperFile else { continue }
                scanned += 1
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for hit in Self.suspiciousConversions(in: String(line)) {
                        offenders.append("\(target)/\(file.lastPathComponent): \(hit)")
                    }
                }
            }
        }
        #expect(scanned > 100, "the scan must see the sources (found \(scanned) files)")
        #expect(offenders.isEmpty, "convert through WholeNumber instead:\n\(offenders.joined(separator: "\n"))")
    }

    /// The scan can fail: it finds the very conversion that once took the panel down.
    @Test func theScanFindsTheOldTrap() {
        #expect(Self.suspiciousConversions(in: "price: Int(current.price), x").count == 1)
        #expect(Self.suspiciousConversions(in: "let s = Int(interval.rounded(.up))").count == 1)
        #expect(Self.suspiciousConversions(in: "Int(exactly: price)").isEmpty)
        #expect(Self.suspiciousConversions(in: "Int(text)").isEmpty)
    }

    @Test func wholeNumbersNeverTrap() {
        #expect(WholeNumber.exact(9_223_372_036_854_775_807.0) == nil)
        #expect(WholeNumber.exact(12.5) == nil)
        #expect(WholeNumber.exact(.nan) == nil)
        #expect(WholeNumber.exact(3000) == 3000)
        #expect(WholeNumber.clamped(9_223_372_036_854_775_807.0) == Int.max)
        #expect(WholeNumber.clamped(-1e300) == Int.min)
        #expect(WholeNumber.clamped(.infinity) == Int.max)
        #expect(WholeNumber.clamped(.nan) == 0)
        #expect(WholeNumber.clamped(2.4, rounding: .up) == 3)
        #expect(WholeNumber.plainDigits(1e15) == nil)
        #expect(WholeNumber.plainDigits(5000) == "5000")
        #expect(WholeNumber.milliseconds(1e300) == 86_400_000)
        #expect(WholeNumber.milliseconds(-5) == 0)
    }

    /// Regression tests of the audited places that converted doubles from outside.
    @Test func formattingHostileAmountsNeverTraps() {
        for amount in [9_223_372_036_854_775_807.0, -9.3e18, 1e300, -1e300, .infinity, -.infinity, .nan, 8.99e15, 9e15] {
            _ = Money.format(amount, .KRW)
            _ = Money.format(amount, .USD)
            _ = Money.inputValue(amount)
            _ = CatalogCSV.amount(amount, .KRW)
        }
        #expect(Money.format(9_223_372_036_854_775_807.0, .KRW).hasPrefix("₩9223372036854775808"))
        #expect(LanguageTests.en.duration(1e300).isEmpty == false)
        #expect(LanguageTests.en.duration(.nan).isEmpty == false)
    }
}

/// Page numbers the API sends (`page_no`, `last_page`) reach the pagination arithmetic.
@Suite struct HostilePageNumberTests {
    @Test func paginationNeverOverflows() {
        for (current, last) in [(Int.max, Int.max), (Int.min, Int.max), (Int.max, 3), (5, Int.min), (-1, -1)] {
            _ = Pagination.numbers(current: current, last: last)
            _ = Pagination.view(current: current, last: last, hasPrev: true, hasNext: true, query: CatalogQuery())
        }
        #expect(Pagination.numbers(current: Int.max, last: Int.max).last == Pagination.maxPage)
    }
}
