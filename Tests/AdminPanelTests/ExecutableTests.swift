import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The `openmarket-admin` executable as a newcomer meets it: flags, start-up lines, shutdown.
@Suite struct ExecutableTests {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The built executable, next to the test bundle (`swift build --build-tests` builds it).
    static func executable() throws -> URL {
        var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(), Bundle.main.bundleURL]
        if let url = Bundle.main.executableURL { folders.append(url.deletingLastPathComponent()) }
        for start in folders {
            var folder = start
            for _ in 0..<4 {
                let binary = folder.appendingPathComponent("openmarket-admin")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw Failure(description: "openmarket-admin not found next to the tests; run `swift build --build-tests`")
    }

    /// Blocking work (pipes, waiting for a process) runs on a thread of its own: blocking one of
    /// Swift's few cooperative threads would starve the panels other tests run in this process.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            // Not a global queue: on Linux those are the Swift concurrency pool itself.
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    /// `TestBrowser` sends its requests through `offPool`: on Linux the global dispatch queues lend
    /// their threads to the Swift concurrency pool, so blocking there starved the in-process panels.
    @Test func blockingHelperWorkRunsOffTheConcurrencyPool() async throws {
        let poolLabel = currentDispatchQueueLabel()   // this test runs on the pool
        let label = try await Self.offPool { currentDispatchQueueLabel() }
        #expect(label != DispatchQueue.global().label)
        #expect(label != poolLabel)
    }

    /// Sends SIGTERM and waits up to a minute for the exit status; kills it if it hangs.
    static func stop(_ process: Process) async throws -> Int32? {
        process.terminate()
        return try await offPool {
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            guard !process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            return process.terminationStatus
        }
    }

    /// Runs to the end; answers the exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// Starts the panel with its sandbox on free ports, from `/` (so the checkout is found from
    /// the binary's own path), and reads the start-up lines.
    struct Started: @unchecked Sendable { var process: Process; var lines: String; var port: Int }

    /// `arguments` replace the embedded sandbox's port (e.g. `--api` for another API);
    /// `environment` is added to this process's own (secrets go there, not on the command line).
    static func start(data: URL, arguments: [String] = ["--sandbox-port", "0"], environment: [String: String] = [:],
                      standardError: FileHandle = .nullDevice) throws -> Started {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["--port", "0", "--data", data.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = Pipe()
        process.standardOutput = output
        process.standardError = standardError
        try process.run()
        var printed = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
            if let range = printed.range(of: #"Admin panel:\s+http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                let port = Int(printed[range].split(separator: ":").last!.dropLast()) ?? 0
                return Started(process: process, lines: printed, port: port)
            }
        }
        process.terminate()
        throw Failure(description: "the panel did not print its URL: \(printed)")
    }

    @Test func helpAndBadFlags() async throws {
        let help = try await Self.offPool { try Self.run(["--help"]) }
        #expect(help.status == 0)
        #expect(help.output.contains("--sandbox-port") && help.output.contains("OPENMARKET_API"))
        for arguments in [["--port", "eighty"], ["--dialect", "v9"], ["--frobnicate"], ["--api", "http://x"]] {
            let bad = try await Self.offPool { try Self.run(arguments) }
            #expect(bad.status == 2, "\(arguments)")
            #expect(bad.error.hasPrefix("openmarket-admin: ") && bad.error.filter { $0 == "\n" }.count == 1, "\(bad.error)")
        }
        let missing = try await Self.offPool { try Self.run(["--templates", "/no/such/folder", "--port", "0", "--sandbox-port", "0"]) }
        #expect(missing.status == 1)
        #expect(missing.error.contains("/no/such/folder does not exist"))
    }

    @Test func startsWithTheSandboxServesAndStopsOnSIGTERM() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("admin-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await Self.offPool { try Self.start(data: data) }
        #expect(first.lines.contains("Sandbox API:  http://127.0.0.1:"))
        #expect(first.lines.contains("Demo vendor \"demo\" created. Its password"))
        let secret = try #require(first.lines.split(separator: "\n").first { $0.contains("Its password") }?.split(separator: " ").last)
        let page = try await TestBrowser(port: first.port).get("/products")
        #expect(page.status == 200)
        #expect(page.text.contains("data-view=\"list\""))
        #expect(!page.text.contains(String(secret)))
        #expect(try await Self.stop(first.process) == 0)

        let second = try await Self.offPool { try Self.start(data: data) }
        #expect(!second.lines.contains("created"))
        #expect(second.lines.contains("Demo vendor \"demo\" ready. Its password, asked when you delete a product: \(secret)"))
        #expect(try await Self.stop(second.process) == 0)
    }
}
