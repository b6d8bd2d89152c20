import Foundation
import OpenMarketCore
import Testing
@testable import AdminPanel
@testable import HTMLTemplates

/// Panels of one process share what they build from a templates folder, and only while the folder
/// reads the same: an edited text or template is built anew, and a broken one still stops the start.
@Suite struct PageAssetsTests {
    private static func copyOfTheTemplates() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("page-assets-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: PanelHarness.repository.appendingPathComponent("Templates"), to: folder)
        return folder
    }

    private static func replace(_ old: String, with new: String, in file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func anUnchangedFolderIsBuiltOnceAndAnEditedOneAgain() throws {
        let folder = try Self.copyOfTheTemplates()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try PageAssets.shared(directory: folder, dialect: .v2b)
        let again = try PageAssets.shared(directory: folder, dialect: .v2b)
        #expect(first.catalogs[.en].texts == again.catalogs[.en].texts)
        #expect(first.compiled[.en]?.frame.block === again.compiled[.en]?.frame.block, "an unchanged folder is not compiled again")

        try Self.replace("\"Copied.\"", with: "\"Copied to the clipboard.\"", in: folder.appendingPathComponent("strings/en.json"))
        let edited = try PageAssets.shared(directory: folder, dialect: .v2b)
        #expect(edited.catalogs[.en].texts["js_copied"] == "Copied to the clipboard.")
        #expect(edited.compiled[.en]?.escapedScriptStrings.contains("Copied to the clipboard.") == true)
        #expect(first.compiled[.en]?.escapedScriptStrings.contains("Copied to the clipboard.") == false)
    }

    @Test func eachDialectHasItsOwnTexts() throws {
        let folder = PanelHarness.repository.appendingPathComponent("Templates")
        let v1 = try PageAssets.shared(directory: folder, dialect: .v1)
        let v2b = try PageAssets.shared(directory: folder, dialect: .v2b)
        let expected = try StringCatalogs(directory: folder.appendingPathComponent("strings"))
        #expect(v1.catalogs[.ko].texts == expected.forDialect(.v1)[.ko].texts)
        #expect(v2b.catalogs[.ko].texts == expected.forDialect(.v2b)[.ko].texts)
        #expect(v1.catalogs[.en].texts != v2b.catalogs[.en].texts)
    }

    @Test func aTemplateBrokenAfterAGoodStartStillStopsTheNextStart() throws {
        let folder = try Self.copyOfTheTemplates()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try PageAssets.shared(directory: folder, dialect: .v2b)
        try Self.replace("<title>{{title}}", with: "<title>{{no_such_field}}{{title}}", in: folder.appendingPathComponent("layout.html"))
        #expect(throws: PanelStartupError.self) { try PageAssets.shared(directory: folder, dialect: .v2b) }
    }
}
