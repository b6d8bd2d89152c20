import Foundation

/// The path of an executable this package builds (`openmarket-admin`, `openmarket-sandbox`):
/// next to the test bundle, since `swift build --build-tests` builds them into the same folder.
public func builtProduct(_ name: String) throws -> String {
    var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(), Bundle.main.bundleURL]
    if let url = Bundle.main.executableURL { folders.append(url.deletingLastPathComponent()) }
    for start in folders {
        var folder = start
        // The test binary may sit inside `X.xctest/…`: climb a few levels.
        for _ in 0..<4 {
            let binary = folder.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
            folder = folder.deletingLastPathComponent()
        }
    }
    throw ChildProcess.Failure(description: "\(name) not found next to the tests; run `swift build --build-tests` first")
}
