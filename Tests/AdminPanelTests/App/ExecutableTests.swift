import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The `openmarket-admin` executable as a newcomer meets it: flags, start-up lines, shutdown.
@Suite(.awaitsTeardown) struct ExecutableTests {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `TestBrowser` sends its requests through `offPool`: on Linux the global dispatch queues lend
    /// their threads to the Swift concurrency pool, so blocking there starved the in-process panels.
    @Test func blockingHelperWorkRunsOffTheConcurrencyPool() async throws {
        let poolLabel = currentDispatchQueueLabel()   // this test runs on the pool
        let label = try await offPool { currentDispatchQueueLabel() }
        #expect(label != DispatchQueue.global().label)
        #expect(label != poolLabel)
    }

    /// Sends SIGTERM and waits up to a minute for the exit status; nil if it hung (it is then killed).
    static func stop(_ child: ChildProcess) async throws -> Int32? {
        try await offPool { child.stop()?.status }
    }

    /// Runs to the end; answers the exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let result = try ChildProcess.run(try builtProduct("openmarket-admin"), arguments)
        return (result.termination.status, result.output, result.error)
    }

    /// The panel, started, with what it printed up to `ready` and the port it serves on.
    struct Started: Sendable { var child: ChildProcess; var lines: String; var port: Int }

    /// Starts the panel with its sandbox on free ports, from `/` (so the checkout is found from
    /// the binary's own path), and reads the start-up lines until they name the panel's URL and
    /// `ready` holds of them. HTTPSExecutableTests starts it the same way with `--tls on`.
    /// `environment` is added to this process's own (secrets go there, not on the command line).
    /// `binary`: another build of the panel (measurements against an older one), else this one's.
    static func start(data: URL, extra: [String] = [], environment: [String: String] = [:],
                      error: ChildProcess.Stream = .null, binary: String? = nil,
                      until ready: (String) -> Bool = { _ in true }) throws -> Started {
        let arguments = ["--port", "0", "--sandbox-port", "0", "--data", data.path] + extra
        let child = try ChildProcess(try binary ?? builtProduct("openmarket-admin"), arguments,
                                     environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                     workingDirectory: "/", error: error)
        let url = #"Admin panel:\s+https?://127\.0\.0\.1:(\d+)/"#
        let lines = try child.readOutput { $0.range(of: url, options: .regularExpression) != nil && ready($0) }
        let port = Int(lines[lines.range(of: url, options: .regularExpression)!].split(separator: ":").last!.dropLast()) ?? 0
        return Started(child: child, lines: lines, port: port)
    }

    @Test func helpAndBadFlags() async throws {
        let help = try await offPool { try Self.run(["--help"]) }
        #expect(help.status == 0)
        #expect(help.output.contains("--sandbox-port") && help.output.contains("OPENMARKET_API"))
        for arguments in [["--port", "eighty"], ["--dialect", "v9"], ["--frobnicate"], ["--api", "http://x"]] {
            let bad = try await offPool { try Self.run(arguments) }
            #expect(bad.status == 2, "\(arguments)")
            #expect(bad.error.hasPrefix("openmarket-admin: ") && bad.error.filter { $0 == "\n" }.count == 1, "\(bad.error)")
        }
        let missing = try await offPool { try Self.run(["--templates", "/no/such/folder", "--port", "0", "--sandbox-port", "0"]) }
        #expect(missing.status == 1)
        #expect(missing.error.contains("/no/such/folder does not exist"))
    }

    @Test func startsWithTheSandboxServesAndStopsOnSIGTERM() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("admin-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await offPool { try Self.start(data: data) }
        #expect(first.lines.contains("Sandbox API:  http://127.0.0.1:"))
        #expect(first.lines.contains("Demo vendor \"demo\" created. Its password"))
        let secret = try #require(first.lines.split(separator: "\n").first { $0.contains("Its password") }?.split(separator: " ").last)
        let page = try await TestBrowser(port: first.port).get("/products")
        #expect(page.status == 200)
        #expect(page.text.contains("data-view=\"list\""))
        #expect(!page.text.contains(String(secret)))
        #expect(try await Self.stop(first.child) == 0)

        let second = try await offPool { try Self.start(data: data) }
        #expect(!second.lines.contains("created"))
        #expect(second.lines.contains("Demo vendor \"demo\" ready. Its password, asked when you delete a product: \(secret)"))
        #expect(try await Self.stop(second.child) == 0)
    }
}
