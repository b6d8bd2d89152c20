import Foundation

/// The captured API answers. The copies next to the tests are the primary source (a clean clone
/// has them); the team's shared folder, when present, is checked too so the copies cannot drift.
enum FixtureFiles {
    static let testsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // OpenMarketCoreTests

    static let copies = testsDirectory.appendingPathComponent("Fixtures")

    /// `../shared/fixtures` beside the checkout (absent in CI).
    static let shared = testsDirectory
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // checkout
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: copies.appendingPathComponent(name))
    }

    static func names(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }
}
