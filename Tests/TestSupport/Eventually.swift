import Foundation

/// The tests' one way to wait: polls `condition` until it holds or `seconds` pass, and answers
/// whether it held. Never a fixed sleep: a test waits for something it can observe (a count, a
/// file, a log line), as long as that takes on a loaded machine and not a moment longer.
/// Generous by default because the machine may be slow; assert on the answer, e.g.
///
///     #expect(await eventually { upstream.requests == 2 })
///     try #require(await eventually(seconds: 60) { FileManager.default.fileExists(atPath: path) })
public func eventually(seconds: Double = 20, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
