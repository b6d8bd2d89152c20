import Foundation
import Testing
import TestSupport

/// The tests' own launcher (posix_spawn, instead of Foundation's `Process`). Each test's blocking
/// calls run through `offPool`, off the pool the in-process servers of other tests need.
@Suite(.awaitsTeardown) struct ChildProcessTests {
    @Test func exitCodesOutputAndErrorAreReported() async throws {
        let ok = try await offPool { try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2"]) }
        #expect(ok.termination == .exited(0))
        #expect(ok.output == "out\n")
        #expect(ok.error == "err\n")
        let failed = try await offPool { try ChildProcess.run("/bin/sh", ["-c", "exit 3"]) }
        #expect(failed.termination == .exited(3) && failed.termination.status == 3)
        let merged = try await offPool { try ChildProcess.run("/bin/sh", ["-c", "echo a; echo b >&2; echo c"], errorToOutput: true) }
        #expect(merged.output == "a\nb\nc\n" && merged.error.isEmpty)
    }

    /// Both pipes filled far past their 64 KiB at once: reading one while the child waits on the
    /// other would hang.
    @Test func largeOutputOnBothStreamsIsReadWithoutStalling() async throws {
        let script = "head -c 300000 /dev/zero | tr '\\0' o & head -c 300000 /dev/zero | tr '\\0' e >&2; wait"
        let result = try await offPool { try ChildProcess.run("/bin/sh", ["-c", script]) }
        #expect(result.termination == .exited(0))
        #expect(result.output.count == 300_000 && result.output.allSatisfy { $0 == "o" })
        #expect(result.error.count == 300_000 && result.error.allSatisfy { $0 == "e" })
    }

    @Test func inputEnvironmentAndWorkingDirectoryReachTheChild() async throws {
        let echoed = try await offPool { try ChildProcess.run("/bin/cat", input: "line one\nline two\n") }
        #expect(echoed.output == "line one\nline two\n")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let placed = try await offPool {
            try ChildProcess.run("/bin/sh", ["-c", "pwd; echo \"$GREETING\"; echo \"${HOME:-none}\""],
                                 environment: ["GREETING": "hello"], workingDirectory: folder.path)
        }
        #expect(placed.output == "\(folder.resolvingSymlinksInPath().path)\nhello\nnone\n")
    }

    @Test func outputCanGoToAFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-out-\(UUID().uuidString)").path
        defer { unlink(file) }
        let child = try ChildProcess("/bin/sh", ["-c", "echo to the file; echo to the pipe >&2"], output: .file(file), error: .pipe)
        let result = try await offPool { child.readToEnd() }
        #expect(result.termination == .exited(0) && result.output.isEmpty && result.error == "to the pipe\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "to the file\n")
    }

    @Test func signalsEndTheChildAndAreReported() async throws {
        let child = try ChildProcess("/bin/cat", input: .pipe)
        #expect(!child.hasExited)
        #expect(child.wait(seconds: 0.05) == nil)   // cat waits for its input
        child.signal(SIGKILL)
        #expect(try await offPool { child.wait(seconds: 30) } == .signaled(SIGKILL))
        child.signal(SIGTERM)   // after it is gone: nothing happens
        #expect(child.wait() == .signaled(SIGKILL))

        let stopped = try ChildProcess("/bin/sleep", ["600"])
        #expect(try await offPool { stopped.stop(seconds: 30) } == .signaled(SIGTERM))
        // A child that ignores SIGTERM is killed, and stop says it did not stop.
        let stubborn = try ChildProcess("/bin/sh", ["-c", "trap '' TERM; echo ready; exec sleep 600"])
        _ = try await offPool { try stubborn.readOutput { $0.contains("ready\n") } }
        #expect(try await offPool { stubborn.stop(seconds: 0.3) } == nil)
        #expect(stubborn.wait() == .signaled(SIGKILL))
    }

    @Test func startUpLinesAreAwaitedWithADeadline() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo starting; echo 'listening on 4242'; exec cat"], input: .pipe)
        let lines = try await offPool { try child.readOutput { $0.contains("listening on") } }
        #expect(lines.hasPrefix("starting\n"))
        // Nothing more comes: the wait ends at its deadline with what was printed.
        let silent = await #expect(throws: ChildProcess.Failure.self) {
            try await offPool { try child.readOutput(seconds: 0.2) { $0.contains("never") } }
        }
        #expect(silent?.description.contains("listening on 4242") == true)
        child.closeInput()
        #expect(try await offPool { child.wait(seconds: 30) } == .exited(0))

        let quitter = try ChildProcess("/bin/sh", ["-c", "echo bye; exit 7"])
        let ended = await #expect(throws: ChildProcess.Failure.self) {
            try await offPool { try quitter.readOutput { $0.contains("never") } }
        }
        #expect(ended?.description.contains("exited with status 7") == true, "\(String(describing: ended))")
    }

    @Test func aMissingProgramOrFolderIsAClearError() throws {
        let missing = #expect(throws: ChildProcess.Failure.self) { try ChildProcess("/no/such/program") }
        #expect(missing?.description == "cannot run /no/such/program: No such file or directory")
        let nowhere = #expect(throws: ChildProcess.Failure.self) { try ChildProcess("/bin/true", workingDirectory: "/no/such/folder") }
        #expect(nowhere?.description.contains("/no/such/folder") == true)
        #expect(throws: ChildProcess.Failure.self) { try builtProduct("no-such-product") }
    }

    /// A descriptor this process opened without close-on-exec stays out of the child.
    @Test func onlyStandardDescriptorsReachTheChild() async throws {
        let leaky = open("/dev/null", O_RDONLY)   // deliberately without O_CLOEXEC
        // The lowest free number from 900 up: dup2 onto a fixed number would close whatever other
        // tests running meanwhile hold there (a server's listening socket, a client's connection).
        let high = fcntl(leaky, F_DUPFD, 900)
        close(leaky)
        defer { close(high) }
        #expect(high >= 900)
        let listed = try await offPool { try ChildProcess.run("/bin/ls", ["/proc/self/fd"]) }
        let descriptors = Set(listed.output.split(separator: "\n").map(String.init))
        // 0, 1, 2 and the directory ls is reading.
        #expect(descriptors.isSubset(of: ["0", "1", "2", "3"]) && !descriptors.contains("\(high)"), "\(descriptors)")
    }

    /// Many descriptors open in this process (what made Foundation's Process crash).
    @Test func startsWhileThousandsOfDescriptorsAreOpen() async throws {
        raiseDescriptorLimit(to: 8192)   // room for the thousand connections' test at the same time
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<2_000 { held.append(open("/dev/null", O_RDONLY | O_CLOEXEC)) }
        #expect(held.allSatisfy { $0 >= 0 })
        let result = try await offPool { try ChildProcess.run("/bin/sh", ["-c", "echo fine"]) }
        #expect(result.termination == .exited(0) && result.output == "fine\n")
    }
}
