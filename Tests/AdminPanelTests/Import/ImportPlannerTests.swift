import Foundation
import OpenMarketCore
import Testing
@testable import AdminPanel

/// Row planning: create, update (only changed fields, old → new), unchanged, error — with the
/// line, the column and the rule — by the register form's rules.
@Suite struct ImportPlannerTests {
    static let own = ImportPlanner.Existing(id: 7, vendorID: 1, name: "Green tea", description: "Leaves from Jeju island.",
                                            currency: .KRW, price: 12_000, discountedPrice: 1_000, stock: 5)
    static let foreign = ImportPlanner.Existing(id: 9, vendorID: 2, name: "Their mug", description: nil,
                                                currency: .USD, price: 8.5, discountedPrice: 0, stock: 1)

    static func plan(_ csv: String, uploads: [String: ImportIssue?] = ["a.jpg": nil, "b.png": nil]) throws -> ImportPlan {
        let records = try CSVReader().read(csv)
        let planner = ImportPlanner(ownVendorID: 1, products: [7: own, 9: foreign], uploads: uploads)
        return planner.plan(header: records[0].cells, records: Array(records.dropFirst()))
    }

    @Test func anOwnProductUpdatesOnlyTheChangedFields() throws {
        let plan = try Self.plan("ID,Price,stock,name,discounted_price\n7,\"13,500\",5,,1000\n")
        let row = try #require(plan.rows.first)
        #expect(row.outcome == .update)
        #expect(row.changes == [ImportChange(field: "price", old: "12000", new: "13500", oldCurrency: "KRW", newCurrency: "KRW")])
        #expect(row.update == ImportUpdate(price: 13_500))
        #expect(row.name == "Green tea")  // an empty cell keeps the field
        #expect(!plan.hasErrors)
    }

    @Test func equalValuesAreUnchangedAndTheExportRoundTrips() throws {
        let header = CatalogCSV.header
        let csv = header + "\n7,Green tea,demo,KRW,12000,1000,11000,5,2026-11-25,2026-11-25,http://x/t.png\n"
            + "9,Their mug,other,USD,8.50,0.00,8.50,1,2026-11-25,2026-11-25,http://x/u.png\n"
        let plan = try Self.plan(csv)
        #expect(plan.rows.map(\.outcome) == [.unchanged, .unchanged])
        #expect(plan.applicable.isEmpty)
        #expect(!plan.hasErrors)
    }

    @Test func anotherVendorsProductCannotBeChanged() throws {
        let plan = try Self.plan("id,stock\n9,4\n")
        #expect(plan.rows[0].outcome == .error)
        #expect(plan.rows[0].issues.map(\.key) == ["import_rule_not_yours"])
        #expect(plan.rows[0].issues[0].column == "stock")
    }

    @Test func aRowWithoutIDCreatesWithDescriptionAndImages() throws {
        let plan = try Self.plan("name,description,price,currency,stock,images\n"
            + "새 머그컵,\"손잡이가 큰 머그컵입니다.\",\"₩12,000\",KRW,3,a.jpg | https://example.com/c.jpg\n")
        let row = try #require(plan.rows.first)
        #expect(row.outcome == .create)
        #expect(row.create == ImportNewProduct(name: "새 머그컵", description: "손잡이가 큰 머그컵입니다.", price: 12_000,
                                               currency: "KRW", discountedPrice: 0, stock: 3,
                                               images: ["a.jpg", "https://example.com/c.jpg"]))
    }

    @Test func errorsNameTheLineTheColumnAndTheRule() throws {
        let plan = try Self.plan("name,description,price,currency,images\n"
            + "Ok name,short,12000.5,KRW,a.jpg\n"
            + "\"Two\nlines\",A description long enough,abc,KRW,\n"
            + "Third,A description long enough,100,KRW,missing.jpg\n"
            + "Fourth,A description long enough,100,KRW,ftp://host/x.jpg\n")
        #expect(plan.rows.map(\.outcome) == [.error, .error, .error, .error])
        #expect(plan.rows.map(\.line) == [2, 3, 5, 6])
        let first = plan.rows[0].issues.map { "\($0.line) \($0.column) \($0.key)" }
        #expect(first.contains("2 price issue_price_whole"))
        #expect(first.contains("2 description issue_description_too_short"))
        let second = plan.rows[1].issues.map { "\($0.line) \($0.column) \($0.key)" }
        #expect(second.contains("3 price issue_price_unreadable"))
        #expect(second.contains("3 images issue_images_none"))
        #expect(plan.rows[2].issues.map(\.key) == ["import_rule_image_missing"])
        #expect(plan.rows[3].issues.map(\.key) == ["import_rule_image_scheme"])
        #expect(plan.hasErrors)
    }

    @Test func duplicateAndUnknownIDsAreErrors() throws {
        let plan = try Self.plan("id,stock\n7,1\n8,1\n7,2\nx,1\n")
        // Both rows of a repeated id are errors: which one the seller meant is theirs to say.
        #expect(plan.rows.map(\.outcome) == [.error, .error, .error, .error])
        #expect(plan.rows[0].issues.map(\.key) == ["import_rule_duplicate_id_again"])
        #expect(plan.rows[0].issues[0].arguments["other"] == "4" && plan.rows[0].update == nil && plan.rows[0].changes.isEmpty)
        #expect(plan.rows[0].cells == ["7", "1"] && plan.applicable.isEmpty)
        #expect(plan.rows[1].issues.map(\.key) == ["import_rule_id_unknown"])
        #expect(plan.rows[2].issues.map(\.key) == ["import_rule_duplicate_id"])
        #expect(plan.rows[2].issues[0].arguments["first"] == "2")
        #expect(plan.rows[3].issues.map(\.key) == ["import_rule_id_unreadable"])
    }

    @Test func aHeaderWithoutNameIsAProblemOnlyWhenSomeRowCreates() throws {
        #expect(try Self.plan("id,stock\n7,9\n").problems.isEmpty)
        let plan = try Self.plan("price,description,images\n100,A description long enough,a.jpg\n")
        #expect(plan.problems.map(\.key) == ["import_rule_name_column"])
        #expect(plan.hasErrors)
        #expect(try Self.plan("foo,bar\n1,2\n").problems.map(\.key) == ["import_rule_no_columns"])
    }

    @Test func discountAbovePriceAndUnusablePhotosAreRefused() throws {
        let plan = try Self.plan("id,price\n7,500\n")
        #expect(plan.rows[0].issues.map(\.key) == ["issue_discount_over_price"])
        let bad = ImportIssue(line: 0, column: "images", key: "import_rule_image_unusable", message: "too big")
        let withBadPhoto = try Self.plan("name,description,price,images\nMug one,A description long enough,100,big.gif\n",
                                         uploads: ["big.gif": .some(bad)])
        #expect(withBadPhoto.rows[0].issues.map(\.line) == [2])
        #expect(withBadPhoto.rows[0].issues.map(\.key) == ["import_rule_image_unusable"])
    }

    @Test func aThousandRowsArePlanned() throws {
        var csv = "name,description,price,currency,stock,images\n"
        for index in 0..<1_000 { csv += "Product \(index),\"A description, long enough\",\"12,\(String(format: "%03d", index % 1000))\",KRW,\(index),a.jpg\n" }
        let text = try CSVTextDecoder.decode(Data(csv.utf8)).text
        let records = try CSVReader().read(text)
        let planner = ImportPlanner(ownVendorID: 1, products: [:], uploads: ["a.jpg": nil])
        let plan = planner.plan(header: records[0].cells, records: Array(records.dropFirst()))
        #expect(plan.rows.count == 1_000)
        #expect(plan.rows.allSatisfy { $0.outcome == .create })
    }
}

/// Import is an editor's job: viewers reach none of its pages.
@Suite struct ImportAccessTests {
    @Test func importNeedsAnEditor() throws {
        #expect(try RouteTableTests.roleNeeded(method: "GET", path: "/products/import") == .editor)
        #expect(try RouteTableTests.roleNeeded(method: "GET", path: "/products/import/abc") == .editor)
        #expect(try RouteTableTests.roleNeeded(method: "GET", path: "/products/import/abc/status.json") == .editor)
        #expect(try RouteTableTests.roleNeeded(method: "POST", path: "/products/import") == .editor)
        #expect(try RouteTableTests.roleNeeded(method: "GET", path: "/products/12") == .viewer)
    }
}

/// The import store: a person's oldest previews go once they have more than the cap.
@Suite struct ImportStoreTests {
    static func makeStore(_ folder: URL) throws -> ImportStore { try ImportStore(PanelDatabase(directory: folder).writer) }

    @Test func onlyTheNewestImportsOfAPersonAreKept() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.makeStore(folder)
        let plan = ImportPlan(rows: [ImportRow(line: 2, outcome: .update, productID: 1, name: "x", update: ImportUpdate(stock: 1))])
        for index in 0..<5 {
            try await store.create(id: "a\(index)", person: "ann", fileName: "f.csv", plan: plan, at: Date(timeIntervalSince1970: Double(index)))
        }
        try await store.create(id: "b0", person: "bob", fileName: "f.csv", plan: plan, at: Date(timeIntervalSince1970: 0))
        #expect(try await store.trim(person: "ann", keep: 3).sorted() == ["a0", "a1"])
        #expect(try await store.batch("a0") == nil)
        let kept = try #require(try await store.batch("a4"))
        #expect(kept.plan == plan && kept.rows[2]?.state == .pending)
        #expect(try await store.batch("b0") != nil)
    }
}

@Suite struct ImportReasonTests {
    @Test func storedReasonsAreShownInTheReadersLanguage() throws {
        let stored = ImportReason.encode("import_reason_photo_unreadable", ["file": "a=b\u{1F}.jpg"])
        let english = Localizer(catalog: try StringCatalogs(directory: PanelHarness.repository.appendingPathComponent("Templates/strings"))[.en])
        #expect(ImportReason.text(stored, english) == "“a=b.jpg” could not be read as an image.")
        #expect(ImportReason.text("plain old text", english) == "plain old text")
    }
}
