import Foundation
import NetworkIO
import TLS

public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No complete response within the request's timeout.
    case timeout
    /// Could not connect, or the connection broke before a complete response.
    case connectionFailed(String)
    /// The server's answer is not valid HTTP/1.1 (or is too large).
    case malformedResponse
    /// The request itself cannot be sent (not http:// or https://, bad method or header).
    case invalidRequest(String)

    /// How a `.connectionFailed` reason starts when the server's certificate was not accepted
    /// (OpenSSL's reason follows: "certificate has expired", "hostname mismatch"…).
    public static let certificateRefused = "the server's TLS certificate was refused: "

    public var description: String {
        switch self {
        case .timeout: "The server did not answer in time"
        case .connectionFailed(let reason): "Connection failed: \(reason)"
        case .malformedResponse: "The server sent a malformed response"
        case .invalidRequest(let reason): "Invalid request: \(reason)"
        }
    }
}

/// A small HTTP/1.1 client with pooled keep-alive connections, for `http://` and `https://`
/// upstreams (HTTPS through the `TLS` target: SNI, the certificate checked against the host
/// name, trust as its `TLSContext` says). It follows no redirect: a 3xx is handed back as is.
///
/// Sockets are non-blocking and driven by one event-loop thread owned by the client, so callers'
/// tasks only await. An idempotent request that finds its pooled connection closed by the
/// server (nothing received) is retried once on a new connection.
public final class HTTPClient: Sendable {
    private let maxConnectionsPerHost: Int
    private let connectTimeout: Duration
    private let maxResponseBodyBytes: Int
    private let state = Locked<(loop: EventLoop, pool: ClientPool)?>(nil)
    private let addresses = Locked<[String: ClientAddress]>([:])
    /// HTTPS trust: given, or the system's CA store, made at the first https:// request.
    private let tls: Locked<TLSContext?>

    /// `maxResponseBodyBytes`: a longer body (declared or received) fails as `malformedResponse`
    /// before it is buffered; a caller that knows its upstream's answers are small sets it low.
    /// `tls`: whom HTTPS servers may be (default: the system's CA store, loaded when first needed).
    public init(maxConnectionsPerHost: Int = 64, connectTimeout: Duration = .seconds(5),
                maxResponseBodyBytes: Int = 64 << 20, tls: TLSContext? = nil) {
        self.tls = Locked(tls)
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.connectTimeout = connectTimeout
        self.maxResponseBodyBytes = max(0, maxResponseBodyBytes)
    }

    deinit {
        guard let (loop, pool) = state.withLock({ $0 }) else { return }
        loop.execute { pool.closeAll() }
        loop.stop()
    }

    public func send(method: String, url: URL, headers: [(String, String)] = [], body: Data? = nil,
                     timeout: Duration = .seconds(10)) async throws -> (status: Int, headers: [(String, String)], body: Data) {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw HTTPClientError.invalidRequest("only http:// and https:// URLs are supported")
        }
        guard ASCII.isToken(method) else { throw HTTPClientError.invalidRequest("invalid method") }
        let secure = scheme == "https"
        let defaultPort = secure ? 443 : 80
        let port = url.port ?? defaultPort
        let context = secure ? try trust() : nil
        let address = try await resolve(host: host, port: port)
        let job = ClientJob(
            key: ClientPool.Key(host: host, port: port, secure: secure), address: address, tls: context,
            bytes: try Self.serialize(method: method, url: url, host: host, port: port == defaultPort ? nil : port,
                                      headers: headers, body: body),
            isHead: method == "HEAD",
            idempotent: ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(method),
            deadline: monotonicNanos() + timeout.nanoseconds)
        let (loop, pool) = try loopAndPool()
        let response = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ResponseParser.Response, any Error>) in
            job.completion = { continuation.resume(with: $0.mapError { $0 as any Error }) }
            loop.execute { pool.perform(job) }
        }
        return (response.status, response.headers, response.body)
    }

    private func loopAndPool() throws -> (EventLoop, ClientPool) {
        try state.withLock { state in
            if let state { return state }
            let loop: EventLoop
            do { loop = try EventLoop(tickInterval: .milliseconds(50)) } catch {
                throw HTTPClientError.connectionFailed("cannot start the client's event loop")
            }
            var limits = ResponseParser.Limits()
            limits.maxBodyBytes = maxResponseBodyBytes
            let pool = ClientPool(loop: loop, maxPerHost: maxConnectionsPerHost, connectTimeout: connectTimeout.nanoseconds,
                                  limits: limits)
            loop.onTick { pool.expireWaiting(now: monotonicNanos()) }   // before the thread starts
            loop.start(name: "http-client")
            state = (loop, pool)
            return (loop, pool)
        }
    }

    private func trust() throws -> TLSContext {
        try tls.withLock { context in
            if let context { return context }
            do {
                let made = try TLSContext.client()
                context = made
                return made
            } catch {
                throw HTTPClientError.connectionFailed(String(describing: error))
            }
        }
    }

    private func resolve(host: String, port: Int) async throws -> ClientAddress {
        let key = "\(host):\(port)"
        if let cached = addresses.withLock({ $0[key] }) { return cached }
        // getaddrinfo may wait on DNS for seconds: on a thread of its own, never on one of the
        // Swift concurrency pool's few threads (which every server in the process shares).
        let resolved = await BlockingThread().run { ClientAddress.resolve(host: host, port: port) }
        guard let address = resolved else {
            throw HTTPClientError.connectionFailed("cannot resolve \(host)")
        }
        addresses.withLock { $0[key] = address }
        return address
    }

    /// `port` nil: the scheme's default, left out of `Host` (as browsers do; some virtual hosts
    /// compare the header with their bare name).
    static func serialize(method: String, url: URL, host: String, port: Int?, headers: [(String, String)],
                          body: Data?) throws -> [UInt8] {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw HTTPClientError.invalidRequest("invalid path") }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(HostName.bracketed(host))\(port.map { ":\($0)" } ?? "")\r\n"
        for (name, value) in headers where ASCII.isToken(name) {
            let lower = name.lowercased()
            if lower == "host" || lower == "content-length" || lower == "transfer-encoding" || lower == "connection" { continue }
            // CR, LF or NUL from a caller's value could end the line and smuggle in a header.
            head += name + ": " + String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }) + "\r\n"
        }
        if let body {
            head += "Content-Length: \(body.count)\r\n"
        } else if method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes.append(contentsOf: body) }
        return bytes
    }
}

/// One request on its way through the pool; completes exactly once. `@unchecked Sendable`: the
/// caller sets `completion` before handing the job to the loop (`loop.execute` orders that write
/// before every later access), and from then on `retried` and `completion` are touched only on
/// the client's event-loop thread.
final class ClientJob: @unchecked Sendable {
    let key: ClientPool.Key
    let address: ClientAddress
    /// Set for https:// (whom the server may be).
    let tls: TLSContext?
    let bytes: [UInt8]
    let isHead: Bool
    let idempotent: Bool
    let deadline: UInt64
    var retried = false
    var completion: ((Result<ResponseParser.Response, HTTPClientError>) -> Void)?

    init(key: ClientPool.Key, address: ClientAddress, tls: TLSContext?, bytes: [UInt8], isHead: Bool, idempotent: Bool,
         deadline: UInt64) {
        self.key = key
        self.address = address
        self.tls = tls
        self.bytes = bytes
        self.isHead = isHead
        self.idempotent = idempotent
        self.deadline = deadline
    }

    func complete(_ result: Result<ResponseParser.Response, HTTPClientError>) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}
