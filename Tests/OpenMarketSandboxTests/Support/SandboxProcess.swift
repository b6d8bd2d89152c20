import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The `openmarket-sandbox` executable run as a separate process, for the crash test.
/// Its blocking calls are only made through `offPool` (see `start`, `stop`, `run`).
final class SandboxProcess: Sendable {
    let child: ChildProcess
    let port: Int
    /// What it printed up to its URL line (the last line of its start-up).
    let startupOutput: String

    /// Starts the sandbox on a free port and waits until it prints its URL.
    init(arguments: [String]) throws {
        child = try ChildProcess(try builtProduct("openmarket-sandbox"), arguments + ["--port", "0"])
        let url = #"http://127\.0\.0\.1:(\d+)"#
        startupOutput = try child.readOutput { $0.range(of: url, options: .regularExpression) != nil }
        port = Int(startupOutput[startupOutput.range(of: url, options: .regularExpression)!].split(separator: ":").last ?? "") ?? 0
    }

    static func start(_ arguments: [String]) async throws -> SandboxProcess {
        try await offPool { try SandboxProcess(arguments: arguments) }
    }

    /// Runs the executable to its end with `arguments`; returns its exit status and output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        let result = try await offPool { try ChildProcess.run(try builtProduct("openmarket-sandbox"), arguments) }
        return (result.termination.status, result.output, result.error)
    }

    /// SIGTERM (the clean shutdown path), then the exit status; -1 if it had to be killed.
    func stop() async throws -> Int32 {
        try await offPool { [child] in child.stop()?.status ?? -1 }
    }

    /// SIGKILL: no chance to flush, close or finish anything.
    func crash() async throws {
        _ = try await offPool { [child] in
            child.signal(SIGKILL)
            return child.wait()
        }
    }
}
