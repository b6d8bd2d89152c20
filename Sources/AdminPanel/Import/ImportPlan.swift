import Foundation

/// What one import file would do, row by row: the preview shows it and the apply step sends
/// exactly it (stored as JSON with the import, so what is applied is what was previewed).
struct ImportPlan: Codable, Sendable, Equatable {
    var rows: [ImportRow]
    /// Problems of the whole file (header, duplicates): nothing can be applied while any exists.
    var problems: [ImportIssue] = []
    /// Uploaded photo name → its stored file in the import's folder (already shrunk to fit).
    var files: [String: String] = [:]
    /// The file's header as the seller wrote it, for the download of the error rows (nil in
    /// previews stored before it was kept).
    var header: [String]? = nil

    var hasErrors: Bool { !problems.isEmpty || rows.contains { $0.outcome == .error } }
    var applicable: [ImportRow] { rows.filter { $0.outcome == .create || $0.outcome == .update } }
    var errorRows: [ImportRow] { rows.filter { $0.outcome == .error } }
}

struct ImportRow: Codable, Sendable, Equatable {
    enum Outcome: String, Codable, Sendable { case create, update, unchanged, error }

    var line: Int
    var outcome: Outcome
    var productID: Int?
    /// The name to show (the row's, or the product's when the row leaves it empty).
    var name: String
    /// Update: each changed field, old → new. Create: each field's value (old is empty).
    var changes: [ImportChange] = []
    var issues: [ImportIssue] = []
    var create: ImportNewProduct?
    var update: ImportUpdate?
    /// An error row's cells as the file had them (the download of the error rows gives them back).
    var cells: [String]? = nil
}

struct ImportChange: Codable, Sendable, Equatable {
    var field: String
    var old: String
    var new: String
    /// For amounts: the currencies of the old and new value (shown as money on the pages).
    var oldCurrency: String? = nil
    var newCurrency: String? = nil
}

/// A broken rule: the line, the column and the rule. `key` is a catalog key (`issue_…` for the
/// form's own rules, `import_rule_…` for the import's); `message` is the English fallback.
struct ImportIssue: Codable, Sendable, Equatable, Error {
    var line: Int
    var column: String
    var key: String
    var arguments: [String: String] = [:]
    var message: String
}

struct ImportNewProduct: Codable, Sendable, Equatable {
    var name: String
    var description: String
    var price: Double
    var currency: String
    var discountedPrice: Double
    var stock: Int
    /// Uploaded file names or http(s) URLs, in the row's order.
    var images: [String]
}

/// Only the fields the row changes.
struct ImportUpdate: Codable, Sendable, Equatable {
    var name: String?
    var description: String?
    var price: Double?
    var currency: String?
    var discountedPrice: Double?
    var stock: Int?
}
