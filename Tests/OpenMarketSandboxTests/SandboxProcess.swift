import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Blocking work (reading a child's output, waiting for its exit) on a thread of its own: on
/// Linux the Swift concurrency pool is as wide as the CPU count, and blocking it stalls the
/// in-process servers of every other test running at the same time.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// The `openmarket-sandbox` executable run as a separate process, for the crash test.
/// Its blocking calls are only made through `offPool` (see `start`, `stop`, `run`).
final class SandboxProcess: @unchecked Sendable {
    let process: Process
    let port: Int
    /// What it printed up to its URL line (the last line of its start-up).
    let startupOutput: String
    private let output: Pipe

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The built executable: next to the test bundle (`swift build --build-tests` builds it).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL { candidates.append(bundle.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for folder in candidates {
            var directory = folder
            // The test bundle may sit inside `X.xctest/…`: climb a few levels.
            for _ in 0..<4 {
                let binary = directory.appendingPathComponent("openmarket-sandbox")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw Failure(description: "openmarket-sandbox not found next to the tests; run `swift build --build-tests` first")
    }

    /// Starts the sandbox on a free port and waits until it prints its URL.
    init(arguments: [String]) throws {
        let process = Process()
        let output = Pipe()
        process.executableURL = try Self.executable()
        process.arguments = arguments + ["--port", "0"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()

        var printed = ""
        let deadline = Date().addingTimeInterval(60)
        var found: Int?
        while found == nil {
            guard Date() < deadline, process.isRunning else {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                throw Failure(description: "the sandbox did not print its URL; output: \(printed)")
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { Thread.sleep(forTimeInterval: 0.01); continue }
            printed += String(decoding: data, as: UTF8.self)
            if let range = printed.range(of: #"http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                found = Int(printed[range].split(separator: ":").last ?? "")
            }
        }
        self.process = process
        self.output = output
        port = found ?? 0
        startupOutput = printed
    }

    /// Runs the executable to its end with `arguments`; returns its exit status and output.
    static func runToEnd(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
    }

    static func start(_ arguments: [String]) async throws -> SandboxProcess {
        try await offPool { try SandboxProcess(arguments: arguments) }
    }

    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await offPool { try runToEnd(arguments) }
    }

    /// SIGTERM, then the exit status.
    func stop() async throws -> Int32 {
        try await offPool { [self] in terminate() }
    }

    func crash() async throws {
        try await offPool { [self] in kill9() }
    }

    /// A test that fails half-way must not leave the process running.
    deinit {
        if process.isRunning { kill9() }
    }

    /// SIGKILL: no chance to flush, close or finish anything.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM: the clean shutdown path; returns the exit status.
    func terminate() -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return process.terminationStatus
    }
}
