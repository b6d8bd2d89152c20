import Foundation
import OpenMarketCore

/// The CSV export of a view (`GET /products/export.csv`): a UTF-8 BOM (spreadsheets then read
/// Korean names right), the header below, RFC 4180 quoting, and every cell that a
/// spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) prefixed with `'`.
enum CatalogCSV {
    static let header = "id,name,vendor,currency,price,discounted_price,bargain_price,stock,created_at,issued_at,thumbnail_url"
    static let byteOrderMark = "\u{FEFF}"

    static func cell(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            value = "'" + value
        }
        if value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            value = "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return value
    }

    /// A price as a plain number: whole won, dollars with cents (no grouping, no symbol).
    static func amount(_ value: Double, _ currency: Currency) -> String {
        guard value.isFinite else { return "" }
        switch currency {
        case .KRW: return WholeNumber.plainDigits(value) ?? String(value)
        case .USD: return String(format: "%.2f", value)
        }
    }

    /// One line (with CRLF, as RFC 4180 asks). The vendor is its name when the API gives one
    /// (v2b), else its id.
    static func row(_ product: CatalogProduct) -> String {
        let fields = [
            String(product.id), product.name, product.vendorName ?? String(product.vendorID), product.currency.rawValue,
            amount(product.price, product.currency), amount(product.discountedPrice, product.currency),
            amount(product.bargainPrice, product.currency), String(product.stock),
            DisplayDate.iso(product.createdAt), DisplayDate.iso(product.issuedAt), product.thumbnail,
        ]
        return fields.map(cell).joined(separator: ",") + "\r\n"
    }

    /// The whole export as pieces of about `batch` rows, produced only as the connection takes
    /// them: the rows are formatted from the snapshot on demand, never all held as text at once.
    static func stream(_ snapshot: CatalogSnapshot, order: [Int32], batch: Int = 500) -> AsyncThrowingStream<Data, any Error> {
        let state = StreamPosition()
        return AsyncThrowingStream(unfolding: {
            let start = state.advance(by: batch)
            if start == -1 {
                return Data((byteOrderMark + header + "\r\n").utf8)
            }
            guard start < order.count else { return nil }
            var text = ""
            for index in order[start..<min(order.count, start + batch)] {
                text += row(snapshot.products[Int(index)])
            }
            return Data(text.utf8)
        })
    }

    /// Where the stream is: -1 for the header, then the start of each batch.
    private final class StreamPosition: @unchecked Sendable {
        private let lock = NSLock()
        private var next = -1

        func advance(by batch: Int) -> Int {
            lock.withLock {
                let current = next
                next = current == -1 ? 0 : current + batch
                return current
            }
        }
    }
}
