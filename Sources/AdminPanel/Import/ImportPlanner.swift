import Foundation
import OpenMarketCore

/// Turns the records of a spreadsheet into an `ImportPlan`, with no I/O: the products the rows
/// name and the uploaded file names are handed in. The rules are the register form's
/// (`ProductRules`, whole won for KRW), so a row that passes here passes the form too.
struct ImportPlanner: Sendable {
    /// A product as the panel knows it, for the rows that name its id.
    struct Existing: Sendable, Equatable {
        var id: Int
        var vendorID: Int
        var name: String
        /// nil when it was not read (the row leaves `description` empty).
        var description: String?
        var currency: Currency
        var price: Double
        var discountedPrice: Double
        var stock: Int
    }

    /// The panel's vendor (nil in v1, where every product is the panel's to change).
    var ownVendorID: Int?
    var products: [Int: Existing]
    /// Names of the uploaded photos, each with the issue that makes it unusable (nil: usable).
    var uploads: [String: ImportIssue?]

    func plan(header: [String], records: [CSVReader.Record]) -> ImportPlan {
        let columns: ImportColumns
        do throws(ImportColumns.Failure) {
            columns = try ImportColumns(header: header)
        } catch .duplicate(let name) {
            return ImportPlan(rows: [], problems: [issue(1, name, "import_rule_duplicate_column", [:],
                                                         "The column \(name) appears twice in the header.")], header: header)
        } catch {
            return ImportPlan(rows: [], problems: [issue(1, "", "import_rule_no_columns", [:],
                "The first line names none of the columns: id, name, description, price, currency, discounted_price, stock, images.")],
                header: header)
        }
        var plan = ImportPlan(rows: [], header: header)
        // Each id's first row, by its place in `plan.rows`.
        var seenIDs: [Int: Int] = [:]
        for record in records {
            var row = planRow(record, columns)
            if let id = row.productID {
                if let firstIndex = seenIDs[id] {
                    let first = plan.rows[firstIndex].line
                    row.outcome = .error
                    row.issues.append(issue(record.line, "id", "import_rule_duplicate_id", ["id": String(id), "first": String(first)],
                                            "The id \(id) is already on line \(first); each product can appear once."))
                    // The first row is in error too: which of the two the seller meant is theirs to
                    // say, and applying the rows without errors must not guess.
                    plan.rows[firstIndex].outcome = .error
                    plan.rows[firstIndex].create = nil
                    plan.rows[firstIndex].update = nil
                    plan.rows[firstIndex].changes = []
                    plan.rows[firstIndex].issues.append(issue(first, "id", "import_rule_duplicate_id_again",
                        ["id": String(id), "other": String(record.line)],
                        "The id \(id) is on line \(record.line) again; each product can appear once."))
                    plan.rows[firstIndex].cells = records.first { $0.line == first }?.cells
                } else {
                    seenIDs[id] = plan.rows.count
                }
            }
            if row.outcome == .error { row.cells = record.cells }
            plan.rows.append(row)
        }
        if !columns.has(.name), plan.rows.contains(where: { $0.productID == nil }) {
            plan.problems.append(issue(1, "name", "import_rule_name_column", [:],
                                       "Rows without an id create products, so the file needs a name column."))
        }
        return plan
    }

    private func planRow(_ record: CSVReader.Record, _ columns: ImportColumns) -> ImportRow {
        let line = record.line
        let idText = columns.value(.id, in: record.cells) ?? ""
        if idText.isEmpty { return planCreate(record, columns) }
        var row = ImportRow(line: line, outcome: .error, productID: nil, name: columns.value(.name, in: record.cells) ?? "")
        guard let id = Int(idText), id > 0 else {
            row.issues.append(issue(line, "id", "import_rule_id_unreadable", ["id": idText],
                                    "The id \(idText) is not a product number."))
            return row
        }
        row.productID = id
        guard let current = products[id] else {
            row.issues.append(issue(line, "id", "import_rule_id_unknown", ["id": String(id)],
                                    "There is no product \(id) in the store."))
            return row
        }
        if row.name.isEmpty { row.name = current.name }
        let (update, changes, issues) = planUpdate(record, columns, current)
        row.issues = issues
        guard issues.isEmpty else { return row }
        if changes.isEmpty {
            row.outcome = .unchanged
        } else if let own = ownVendorID, current.vendorID != own {
            row.issues.append(issue(line, changes[0].field, "import_rule_not_yours", ["id": String(id)],
                                    "Product \(id) belongs to another vendor; it can only be left as it is."))
        } else {
            row.outcome = .update
            row.update = update
            row.changes = changes
        }
        return row
    }

    private func planUpdate(_ record: CSVReader.Record, _ columns: ImportColumns, _ current: Existing)
        -> (ImportUpdate, [ImportChange], [ImportIssue]) {
        let line = record.line
        var update = ImportUpdate()
        var changes: [ImportChange] = []
        var issues: [ImportIssue] = []
        func cell(_ field: ImportColumns.Field) -> String? {
            guard let value = columns.value(field, in: record.cells), !value.isEmpty else { return nil }
            return value
        }
        var currency = current.currency
        if let text = cell(.currency) {
            if let value = Currency(rawValue: text.uppercased()) {
                currency = value
                if value != current.currency {
                    update.currency = value.rawValue
                    changes.append(ImportChange(field: "currency", old: current.currency.rawValue, new: value.rawValue))
                }
            } else {
                issues += ProductRules.currencyIssues(text).map { fieldIssue(line, $0) }
            }
        }
        if let name = cell(.name), name != current.name {
            issues += ProductRules.nameIssues(name).map { fieldIssue(line, $0) }
            update.name = name
            changes.append(ImportChange(field: "name", old: current.name, new: name))
        }
        if let description = cell(.description), !Self.sameDescription(description, current.description) {
            issues += ProductRules.descriptionIssues(description).map { fieldIssue(line, $0) }
            update.description = description
            changes.append(ImportChange(field: "description", old: current.description ?? "", new: description))
        }
        var price = current.price
        if let text = cell(.price) {
            switch amount(text, field: "price", currency: currency, line: line) {
            case .success(let value):
                issues += ProductRules.priceIssues(value).map { fieldIssue(line, $0) }
                price = value
                if !same(value, current.price) {
                    update.price = value
                    changes.append(ImportChange(field: "price", old: CatalogCSV.amount(current.price, current.currency),
                                                new: CatalogCSV.amount(value, currency), oldCurrency: current.currency.rawValue,
                                                newCurrency: currency.rawValue))
                }
            case .failure(let problem): issues.append(problem)
            }
        }
        var discount = current.discountedPrice
        if let text = cell(.discountedPrice) {
            switch amount(text, field: "discounted_price", currency: currency, line: line) {
            case .success(let value):
                discount = value
                if !same(value, current.discountedPrice) {
                    update.discountedPrice = value
                    changes.append(ImportChange(field: "discounted_price",
                                                old: CatalogCSV.amount(current.discountedPrice, current.currency),
                                                new: CatalogCSV.amount(value, currency), oldCurrency: current.currency.rawValue,
                                                newCurrency: currency.rawValue))
                }
            case .failure(let problem): issues.append(problem)
            }
        }
        if issues.allSatisfy({ $0.column != "price" && $0.column != "discounted_price" }) {
            issues += ProductRules.discountIssues(discount, price: price).map { fieldIssue(line, $0) }
        }
        if let text = cell(.stock) {
            switch stock(text, line: line) {
            case .success(let value):
                if value != current.stock {
                    update.stock = value
                    changes.append(ImportChange(field: "stock", old: String(current.stock), new: String(value)))
                }
            case .failure(let problem): issues.append(problem)
            }
        }
        return (update, changes, issues)
    }

    /// A description as read from a file against the API's: equal when only the edges' white
    /// space (trimmed from every cell) or the kind of line break differs. A workbook's XML turns
    /// CR LF into LF, a spreadsheet program may do the same to a CSV; neither is an edit.
    static func sameDescription(_ cell: String, _ current: String?) -> Bool {
        guard let current else { return false }
        func normalized(_ text: String) -> String {
            text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return cell == current || normalized(cell) == normalized(current)
    }

    private func planCreate(_ record: CSVReader.Record, _ columns: ImportColumns) -> ImportRow {
        let line = record.line
        func cell(_ field: ImportColumns.Field) -> String { columns.value(field, in: record.cells) ?? "" }
        let name = cell(.name)
        var row = ImportRow(line: line, outcome: .error, productID: nil, name: name)
        var issues: [ImportIssue] = []
        let currencyText = cell(.currency).uppercased()
        var currency = Currency.KRW
        if !currencyText.isEmpty {
            if let value = Currency(rawValue: currencyText) { currency = value } else {
                issues += ProductRules.currencyIssues(currencyText).map { fieldIssue(line, $0) }
            }
        }
        var price = Double.nan
        let priceText = cell(.price)
        if priceText.isEmpty {
            issues.append(fieldIssue(line, FieldIssue(field: "price", message: "Enter a price.", code: "price_empty")))
        } else {
            switch amount(priceText, field: "price", currency: currency, line: line) {
            case .success(let value): price = value
            case .failure(let problem): issues.append(problem)
            }
        }
        var discount = 0.0
        let discountText = cell(.discountedPrice)
        if !discountText.isEmpty {
            switch amount(discountText, field: "discounted_price", currency: currency, line: line) {
            case .success(let value): discount = value
            case .failure(let problem): issues.append(problem); discount = .nan
            }
        }
        var stockValue = 0
        let stockText = cell(.stock)
        if !stockText.isEmpty {
            switch stock(stockText, line: line) {
            case .success(let value): stockValue = value
            case .failure(let problem): issues.append(problem)
            }
        }
        let description = cell(.description)
        let images = cell(.images).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { uploadedName($0) ?? $0 }
        let draft = NewProduct(name: name, description: description, price: price, currency: currency,
                               discountedPrice: discount, stock: stockValue, images: [])
        for problem in draft.validate() where problem.field != "images" {
            // A price or discount already reported as unreadable is not reported twice.
            if !price.isFinite, problem.field == "price" { continue }
            if !discount.isFinite, problem.field == "discounted_price" { continue }
            issues.append(fieldIssue(line, problem))
        }
        issues += imageIssues(images, line: line)
        row.issues = issues
        guard issues.isEmpty else { return row }
        row.outcome = .create
        row.create = ImportNewProduct(name: name, description: description, price: price, currency: currency.rawValue,
                                      discountedPrice: discount, stock: stockValue, images: images)
        row.changes = [
            ImportChange(field: "name", old: "", new: name),
            ImportChange(field: "price", old: "", new: CatalogCSV.amount(price, currency), newCurrency: currency.rawValue),
            ImportChange(field: "discounted_price", old: "", new: CatalogCSV.amount(discount, currency), newCurrency: currency.rawValue),
            ImportChange(field: "stock", old: "", new: String(stockValue)),
            ImportChange(field: "images", old: "", new: images.joined(separator: " | ")),
        ]
        return row
    }

    /// The uploaded photo a row names: the same name, else the same name in other letter case
    /// (Windows and macOS do not tell `도마_정면.JPG` from `도마_정면.jpg`, so sellers do not either).
    private func uploadedName(_ image: String) -> String? {
        if uploads[image] != nil { return image }
        let folded = image.lowercased()
        return uploads.keys.filter { $0.lowercased() == folded }.min()
    }

    private func imageIssues(_ images: [String], line: Int) -> [ImportIssue] {
        if images.isEmpty {
            return [issue(line, "images", "issue_images_none", [:], "Add at least one image.")]
        }
        if images.count > ProductRules.imageCount.upperBound {
            return [issue(line, "images", "issue_images_too_many",
                          ["max": String(ProductRules.imageCount.upperBound), "count": String(images.count)],
                          "Add at most \(ProductRules.imageCount.upperBound) images (\(images.count) were chosen).")]
        }
        var issues: [ImportIssue] = []
        for image in images {
            if let url = ImageAddress.webURL(image) {
                _ = url
                continue
            }
            if image.lowercased().contains("://") {
                issues.append(issue(line, "images", "import_rule_image_scheme", ["file": image],
                                    "‘\(image)’ is not an http(s) address."))
                continue
            }
            guard let known = uploads[image] else {
                issues.append(issue(line, "images", "import_rule_image_missing", ["file": image],
                                    "No uploaded photo is named ‘\(image)’."))
                continue
            }
            if var problem = known {
                problem.line = line
                issues.append(problem)
            }
        }
        return issues
    }

    // MARK: cells

    /// An amount as the form reads it (digit grouping, ₩ and 원), whole won for KRW.
    private func amount(_ text: String, field: String, currency: Currency, line: Int) -> Result<Double, ImportIssue> {
        let prefix = field == "price" ? "price" : "discount"
        guard let value = AmountText.parse(text) else {
            return .failure(fieldIssue(line, FieldIssue(field: field, message: "Enter the \(prefix) as a number, like 12000 or 12.50.",
                                                        code: prefix + "_unreadable")))
        }
        if AmountText.hasFractionBeyond(currency, value) {
            return .failure(fieldIssue(line, FieldIssue(field: field,
                message: "Enter the \(prefix) as a whole number: this store takes no fractions.", code: prefix + "_whole")))
        }
        if field == "discounted_price" {
            if let problem = ProductRules.discountIssues(value).first { return .failure(fieldIssue(line, problem)) }
        }
        return .success(value)
    }

    private func stock(_ text: String, line: Int) -> Result<Int, ImportIssue> {
        guard let value = AmountText.parse(text), value == value.rounded(), abs(value) < 1e12 else {
            return .failure(fieldIssue(line, FieldIssue(field: "stock", message: "Enter the stock as a whole number, like 10.",
                                                        code: "stock_unreadable")))
        }
        if let problem = ProductRules.stockIssues(Int(value)).first { return .failure(fieldIssue(line, problem)) }
        return .success(Int(value))
    }

    /// Amounts equal to the cent (a spreadsheet may write 12000 as 12000.0).
    private func same(_ lhs: Double, _ rhs: Double) -> Bool { (lhs * 100).rounded() == (rhs * 100).rounded() }

    private func fieldIssue(_ line: Int, _ problem: FieldIssue) -> ImportIssue {
        ImportIssue(line: line, column: problem.field, key: "issue_" + (problem.code ?? "unknown"),
                    arguments: problem.arguments, message: problem.message)
    }

    private func issue(_ line: Int, _ column: String, _ key: String, _ arguments: [String: String], _ message: String) -> ImportIssue {
        ImportIssue(line: line, column: column, key: key, arguments: arguments, message: message)
    }
}
