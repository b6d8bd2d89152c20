import Foundation
import HTTPServer

/// A request handed to a router directly, and its response read back as the server would send
/// it: what a listener does around `Router.respond(to:)`, without the socket.
enum RouterExchange {
    /// The address the in-process tier's requests come from, as a loopback client's would.
    static let remoteAddress = "127.0.0.1"

    struct Answer {
        var status: Int
        /// The handler's headers without those the connection owns, then `Content-Length`.
        var headers: [(name: String, value: String)]
        var body: Data
    }

    /// Answers `request` through `router`; fails after `timeoutSeconds` (a hung handler must fail
    /// the test, not hang it). A pushed stream (`/events`) needs a socket: it fails here.
    static func send<Context>(_ request: HTTPRequest, to router: Router<Context>, timeoutSeconds: Double) async throws -> Answer {
        let isHead = request.method == "HEAD"
        return try await withDeadline(seconds: timeoutSeconds, what: "\(request.method) \(request.target)") {
            let response = await router.respond(to: request)
            return try await answer(response, isHead: isHead)
        }
    }

    /// The response as a client reads it: a file's bytes, a stream's pieces joined, no body for
    /// HEAD, 1xx, 204 and 304, and the connection's own headers replaced by the real length.
    static func answer(_ response: HTTPResponse, isHead: Bool) async throws -> Answer {
        var status = response.status
        var headers = response.headers.filter { !connectionOwned.contains($0.name.lowercased()) }.map { (name: $0.name, value: $0.value) }
        var body: Data
        switch response.body {
        case .empty: body = Data()
        case .data(let data): body = data
        case .file(let path):
            if let data = FileManager.default.contents(atPath: path) {
                body = data
            } else {
                // As the connection answers a file deleted between the handler's look and the send.
                status = 404
                headers = [(name: "Content-Type", value: "text/plain; charset=utf-8")]
                body = Data("Not Found\n".utf8)
            }
        case .stream(let stream):
            body = Data()
            for try await piece in stream { body.append(piece) }
        case .pushed:
            throw TestClientFailure(description: "a pushed stream (server-sent events) needs the live tier")
        }
        let forbidsBody = (100..<200).contains(status) || status == 204 || status == 304
        if !forbidsBody { headers.append((name: "Content-Length", value: String(body.count))) }
        if isHead || forbidsBody { body = Data() }
        return Answer(status: status, headers: headers, body: body)
    }

    /// Headers the server's connection writes itself, ignoring a handler's values.
    private static let connectionOwned: Set<String> = ["content-length", "transfer-encoding", "connection", "date"]

    /// Runs `work` in a task of its own and answers its result, or fails once `seconds` passed.
    private static func withDeadline<T: Sendable>(seconds: Double, what: String,
                                                  _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.attach(continuation)
            let timer = Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                if !Task.isCancelled { outcome.finish(.failure(TestClientFailure(description: "\(what): no answer within \(seconds) s"))) }
            }
            Task {
                do { outcome.finish(.success(try await work())) } catch { outcome.finish(.failure(error)) }
                timer.cancel()
            }
        }
    }
}

/// The first of two results to arrive resumes the waiter; the other is dropped.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    func attach(_ continuation: CheckedContinuation<T, any Error>) { lock.withLock { self.continuation = continuation } }

    func finish(_ result: Result<T, any Error>) {
        let waiter = lock.withLock { () -> CheckedContinuation<T, any Error>? in
            defer { continuation = nil }
            return continuation
        }
        waiter?.resume(with: result)
    }
}
