import Foundation

/// The workbooks under `Fixtures/Workbooks/`, written by `Fixtures/make_fixtures.py` with
/// openpyxl, Python's zipfile and LibreOffice (never by this project), found from this file's path.
enum FixtureWorkbooks {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // WorkbookTests
        .appendingPathComponent("Fixtures/Workbooks")

    /// The file's bytes; a missing fixture throws, so its test fails instead of passing empty.
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}
