import Foundation
#if canImport(Glibc)
import Glibc
import CSpawn

/// A program run as a child of the test process, started with `posix_spawn`.
///
/// Not Foundation's `Process`: its `run()` lists /proc/self/fd into a fixed 32 KiB buffer and
/// reads past it once ~1,300 descriptors are open (swift-corelibs-foundation #5472), which
/// crashed whole `swift test` runs while the server tests held many connections.
///
/// The child gets only standard input, output and error (every other descriptor is closed in it),
/// default signal handling and an empty signal mask. Waiting watches a pidfd, so it needs no
/// polling and signals can never reach a recycled process ID. Every call may block: from async
/// tests, call it on a thread of its own (see each test target's `offPool`).
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        case null
        /// A pipe to this process: `readOutput`, `readToEnd` (output, error) or `write` (input).
        case pipe
        /// A file, created or truncated (output and error only).
        case file(String)
        /// Standard error only: into whatever standard output goes to (one pipe for both).
        case output
    }

    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        /// The status a shell reports: the exit code, or 128 + the signal.
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let pid: pid_t
    public let executable: String
    private let pidfd: Int32
    private let lock = NSLock()
    private var termination: Termination?
    private var inputFD: Int32, outputFD: Int32, errorFD: Int32
    /// Everything read from standard output so far.
    public private(set) var printed = ""

    /// Starts `executable` (a path, not looked up in PATH) with `arguments`. `environment` nil
    /// passes this process's own. Throws a `Failure` naming the executable if it cannot start.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                workingDirectory: String? = nil, input: Stream = .null, output: Stream = .pipe, error: Stream = .null) throws {
        _ = Self.ignoreBrokenPipes
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        defer { childEnds.forEach { _ = Glibc.close($0) } }
        var parentEnds: [Int32] = []

        /// Sets up descriptor `target` (0, 1 or 2) in the child; answers the parent's pipe end or -1.
        func connect(_ target: Int32, to stream: Stream) throws -> Int32 {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                return -1
            case .file(let path):
                guard target != 0 else { throw Failure(description: "a file as standard input is not supported") }
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                return -1
            case .output:
                guard target == 2 else { throw Failure(description: ".output is for standard error only") }
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
                return -1
            case .pipe:
                var ends: [Int32] = [-1, -1]
                // Close-on-exec, so no other child spawned meanwhile inherits them.
                guard pipe2(&ends, O_CLOEXEC) == 0 else { throw Failure(description: "pipe2: \(String(cString: strerror(errno)))") }
                let (childEnd, parentEnd) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(childEnd)
                parentEnds.append(parentEnd)
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)   // dup2 clears close-on-exec
                return parentEnd
            }
        }
        do {
            inputFD = try connect(0, to: input)
            outputFD = try connect(1, to: output)
            errorFD = try connect(2, to: error)
        } catch {
            parentEnds.forEach { _ = Glibc.close($0) }
            throw error
        }
        // Nothing but 0, 1 and 2 reaches the child, even descriptors opened without O_CLOEXEC.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let workingDirectory { posix_spawn_file_actions_addchdir_np(&actions, workingDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)   // e.g. SIGPIPE, ignored here
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { argv.forEach { free($0) }; envp?.forEach { free($0) } }
        var child: pid_t = 0
        let rc = envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard rc == 0 else {
            parentEnds.forEach { _ = Glibc.close($0) }
            let place = workingDirectory.map { " in \($0)" } ?? ""
            throw Failure(description: "cannot run \(executable)\(place): \(String(cString: strerror(rc)))")
        }
        pid = child
        pidfd = pidfd_open(child, 0)
        if pidfd < 0 {   // Linux before 5.3: no way to wait without polling; do not leave it behind.
            let reason = String(cString: strerror(errno))
            Glibc.kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            parentEnds.forEach { _ = Glibc.close($0) }
            throw Failure(description: "pidfd_open for \(executable): \(reason)")
        }
    }

    /// Writing to a child that has exited must fail with EPIPE, not kill the test process.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    deinit {
        // A test that fails half-way must not leave its child running.
        if !hasExited { signal(SIGKILL) }
        _ = wait()
        for fd in [pidfd, inputFD, outputFD, errorFD] where fd >= 0 { Glibc.close(fd) }
    }

    // MARK: Signals and exit

    /// Sends `signal` (SIGTERM, SIGKILL…); nothing once the child has exited and been waited for.
    public func signal(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if termination == nil { _ = pidfd_send_signal(pidfd, signal, nil, 0) }
    }

    /// Waits up to `seconds` (forever if nil) for the child to exit; nil if it is still running.
    public func wait(seconds: Double? = nil) -> Termination? {
        let deadline = seconds.map { Self.now() + $0 }
        while true {
            if let done = reapIfExited() { return done }
            let left = deadline.map { max(0, $0 - Self.now()) }
            if let left, left == 0 { return nil }
            var watch = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            _ = poll(&watch, 1, left.map { Int32(($0 * 1000).rounded(.up)) } ?? -1)
        }
    }

    public var hasExited: Bool { reapIfExited() != nil }

    /// SIGTERM, then the termination; nil if it had not exited after `seconds` (it is then killed).
    public func stop(seconds: Double = 60) -> Termination? {
        signal(SIGTERM)
        if let done = wait(seconds: seconds) { return done }
        signal(SIGKILL)
        _ = wait()
        return nil
    }

    private func reapIfExited() -> Termination? {
        lock.lock()
        defer { lock.unlock() }
        if termination == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros Swift cannot call.
                let signal = status & 0x7f
                termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
            }
        }
        return termination
    }

    // MARK: Standard streams

    /// Reads standard output until `done(printed)` holds; answers everything printed so far.
    /// Throws if the output ends first or nothing satisfies it within `seconds`.
    @discardableResult
    public func readOutput(seconds: Double = 60, until done: (String) -> Bool) throws -> String {
        guard outputFD >= 0 else { throw Failure(description: "standard output of \(executable) is not a pipe") }
        let deadline = Self.now() + seconds
        while !done(printed) {
            let left = deadline - Self.now()
            guard left > 0 else { throw Failure(description: "\(executable) did not print what was awaited within \(seconds) s; it printed: \(printed)") }
            var watch = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
            guard poll(&watch, 1, Int32((left * 1000).rounded(.up))) > 0 else { continue }
            guard let chunk = Self.readChunk(outputFD) else {
                let how = wait(seconds: 5).map { "; it \($0)" } ?? ""
                throw Failure(description: "\(executable) closed its output before printing what was awaited\(how); it printed: \(printed)")
            }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        return printed
    }

    /// Reads standard output and error (those that are pipes) to their end, both at once so a
    /// child filling one pipe while this reads the other cannot stall; then waits for the exit.
    public func readToEnd() -> (termination: Termination, output: String, error: String) {
        var output = [UInt8](printed.utf8), error: [UInt8] = []
        var open = [outputFD, errorFD].filter { $0 >= 0 }
        while !open.isEmpty {
            var watches = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&watches, nfds_t(watches.count), -1) > 0 else { continue }
            for watch in watches where watch.revents != 0 {
                if let chunk = Self.readChunk(watch.fd) {
                    if watch.fd == outputFD { output += chunk } else { error += chunk }
                } else {
                    open.removeAll { $0 == watch.fd }
                }
            }
        }
        printed = String(decoding: output, as: UTF8.self)
        return (wait()!, printed, String(decoding: error, as: UTF8.self))
    }

    /// Writes to standard input (a pipe). Throws if the child has closed it.
    public func write(_ text: String) throws {
        guard inputFD >= 0 else { throw Failure(description: "standard input of \(executable) is not a pipe") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(inputFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "writing to \(executable): \(String(cString: strerror(errno)))") }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Closes standard input: the child reads its end.
    public func closeInput() {
        if inputFD >= 0 { Glibc.close(inputFD) }
        inputFD = -1
    }

    /// Runs to the end: `input` on standard input, both outputs collected.
    public static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                           workingDirectory: String? = nil, input: String? = nil, errorToOutput: Bool = false)
        throws -> (termination: Termination, output: String, error: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, workingDirectory: workingDirectory,
                                     input: input == nil ? .null : .pipe, output: .pipe, error: errorToOutput ? .output : .pipe)
        if let input {
            try? child.write(input)   // it may exit without reading; its output tells
            child.closeInput()
        }
        return child.readToEnd()
    }

    /// nil at the end of the stream.
    private static func readChunk(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            return n > 0 ? Array(buffer[0..<n]) : nil
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
#endif
