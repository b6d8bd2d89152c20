import Foundation

/// The captured API answers. The copies next to the tests are the primary source (a clean clone
/// has them); the team's shared folder, when present, is checked too so the copies cannot drift.
enum FixtureFiles {
    static let testsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // OpenMarketCoreTests

    static let copies = testsDirectory.appendingPathComponent("Fixtures")

    /// The team's `shared/fixtures`, found in the nearest folder above the checkout that has one
    /// (`../shared` for the main checkout, `../../shared` for a worktree under `wt/`); nil in CI.
    static let shared: URL? = {
        var folder = testsDirectory
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()   // checkout
        for _ in 0..<3 {
            folder = folder.deletingLastPathComponent()
            let candidate = folder.appendingPathComponent("shared/fixtures")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), isFolder.boolValue {
                return candidate
            }
        }
        return nil
    }()

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: copies.appendingPathComponent(name))
    }

    /// Every capture the copies must hold: each is decoded by name, so a missing folder or file
    /// fails its test instead of leaving nothing to check.
    static let expected = [
        "v1-item-detail.json", "v1-list-page.json",
        "v2a-list-page.json", "v2a-product-detail.json", "v2b-list-page.json", "v2b-product-detail.json",
    ]

    /// The JSON files of `directory`; throws when the folder is missing.
    static func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}
