import Foundation
import Testing
@testable import AdminPanel

/// The rules a reviewer can check by text: each kind of write has one home. A product write
/// (the client's create, update or delete, either dialect) is sent only by `ProductWriter`,
/// which also updates the copy and records the row; the activity tables are queried only by
/// `ActivityLog`; the dialect is compared only where it is chosen (`PanelDialect`) and in at most
/// three start-up places (flags, string catalogs, the edit form's body limit).
@Suite struct WriteHomeRuleTests {
    static let productWrites = ["client.create(", "client.update(", "client.delete(", ".v1Register(", ".v1Edit(", ".v1Delete("]
    static let activitySQL = ["INTO activity", "FROM activity", "UPDATE activity", "TABLE IF NOT EXISTS activity_runs"]
    static let dialectComparisons = ["dialect == .", "dialect != .", "== .v1", "!= .v1", "case .v1"]
    static let maxDialectComparisons = 3

    /// The lines of `files` (name → text) containing any of `needles`, outside `allowed` files,
    /// as `file: line`; comment lines are skipped.
    static func lines(containing needles: [String], in files: [String: String], except allowed: Set<String>) -> [String] {
        var found: [String] = []
        for (name, text) in files where !allowed.contains(name) {
            for line in text.split(separator: "\n") {
                let trimmed = line.drop { $0 == " " }
                guard !trimmed.hasPrefix("//"), needles.contains(where: { line.contains($0) }) else { continue }
                found.append("\(name): \(trimmed)")
            }
        }
        return found.sorted()
    }

    static func panelSources() throws -> [String: String] {
        let folder = PanelHarness.repository.appendingPathComponent("Sources/AdminPanel")
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            files[String(file.path.dropFirst(folder.path.count + 1))] = try String(contentsOf: file, encoding: .utf8)
        }
        return files
    }

    @Test func theScanFindsWritesOutsideTheirHome() {
        let files = ["A.swift": "let p = try await client.update(id: 1, changes: c)\n// client.delete(id: 1)\n",
                     "Products/ProductWriter.swift": "try await client.create(draft)\n"]
        #expect(Self.lines(containing: Self.productWrites, in: files, except: ["Products/ProductWriter.swift"])
                == ["A.swift: let p = try await client.update(id: 1, changes: c)"])
    }

    @Test func productWritesAreSentOnlyByTheWriter() throws {
        let files = try Self.panelSources()
        #expect(files.count > 100, "the scan must see the sources (found \(files.count) files)")
        let outside = Self.lines(containing: Self.productWrites, in: files, except: ["Products/ProductWriter.swift"])
        #expect(outside.isEmpty, "a product write outside ProductWriter:\n\(outside.joined(separator: "\n"))")
    }

    @Test func onlyTheActivityLogQueriesItsTables() throws {
        let files = try Self.panelSources()
        // The database's schema creates the log's first tables with the rest of panel.sqlite.
        let outside = Self.lines(containing: Self.activitySQL, in: files,
                                 except: ["Activity/ActivityLog.swift", "App/PanelDatabase.swift"])
        #expect(outside.isEmpty, "activity SQL outside ActivityLog:\n\(outside.joined(separator: "\n"))")
    }

    @Test func theDialectIsComparedOnlyWhereItIsChosen() throws {
        let files = try Self.panelSources()
        let outside = Self.lines(containing: Self.dialectComparisons, in: files, except: ["Upstream/PanelDialect.swift"])
        #expect(outside.count <= Self.maxDialectComparisons,
                "dialect compared outside PanelDialect:\n\(outside.joined(separator: "\n"))")
    }
}
