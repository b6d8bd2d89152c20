import Foundation
import Testing

/// Every request the panel sends goes through the project's own `HTTPClient`: Foundation's
/// URLSession (which on Linux follows redirects, inflates gzip, resolves names again and ignores
/// `--api-ca`) may not come back into the panel's sources, not even in a comment.
@Suite struct OneDoorRuleTests {
    static let forbidden = ["URLSession", "FoundationNetworking"]

    static func offenders(_ files: [String: String]) -> [String] {
        files.filter { _, text in forbidden.contains { text.contains($0) } }.keys.sorted()
    }

    @Test func theRuleFindsWhatItLooksFor() {
        #expect(Self.offenders(["A.swift": "let s = URLSession.shared", "B.swift": "import FoundationNetworking",
                                "C.swift": "let client: HTTPClient"]) == ["A.swift", "B.swift"])
    }

    @Test func noURLSessionInThePanel() throws {
        let folder = PanelHarness.repository.appendingPathComponent("Sources/AdminPanel")
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            files[String(file.path.dropFirst(folder.path.count + 1))] = try String(contentsOf: file, encoding: .utf8)
        }
        #expect(files.count > 100, "the scan must see the sources (found \(files.count) files)")
        #expect(Self.offenders(files).isEmpty, "send through HTTPClient instead: \(Self.offenders(files))")
    }
}
