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
    /// The body is longer than the request's limit (declared, or found while reading it).
    case bodyTooLarge(limit: Int)
    /// The body is compressed (gzip, br…) although only `identity` was asked for: inflating it
    /// would let a few bytes on the wire become gigabytes in memory.
    case encodedBody(String)
    /// The server closed the connection in the middle of its answer (a length that lied).
    case incompleteResponse

    /// How a `.connectionFailed` reason starts when the server's certificate was not accepted
    /// (OpenSSL's reason follows: "certificate has expired", "hostname mismatch"…).
    public static let certificateRefused = "the server's TLS certificate was refused: "

    public var description: String {
        switch self {
        case .timeout: "The server did not answer in time"
        case .connectionFailed(let reason): "Connection failed: \(reason)"
        case .malformedResponse: "The server sent a malformed response"
        case .invalidRequest(let reason): "Invalid request: \(reason)"
        case .bodyTooLarge(let limit): "The server's answer is larger than \(limit) bytes"
        case .encodedBody(let coding): "The server sent a \(coding)-compressed answer, which was not asked for"
        case .incompleteResponse: "The server closed the connection before its answer was complete"
        }
    }
}

/// A small HTTP/1.1 client with pooled keep-alive connections, for `http://` and `https://`
/// upstreams (HTTPS through the `TLS` target: SNI, the certificate checked against the host
/// name, trust as its `TLSContext` says). It follows no redirect: a 3xx is handed back as is.
/// It asks for `Accept-Encoding: identity` and refuses any other `Content-Encoding`. Each request
/// has one deadline for everything (connect, TLS, head and body) and a body limit applied while
/// reading; a caller that has judged an address itself has the request connect to exactly it.
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

    /// `maxBodyBytes`: this request's body limit (nil: the client's). `address`: connect to this
    /// address, already resolved and judged by the caller, instead of looking the name up (TLS
    /// still names and checks the URL's host); its connections are pooled apart from the others.
    /// `timeout`: the whole request, from the name lookup to the body's last byte.
    public func send(method: String, url: URL, headers: [(String, String)] = [], body: Data? = nil,
                     timeout: Duration = .seconds(10), maxBodyBytes: Int? = nil, connectingTo address: ClientAddress? = nil)
        async throws -> (status: Int, headers: [(String, String)], body: Data) {
        let deadline = monotonicNanos() + timeout.nanoseconds
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw HTTPClientError.invalidRequest("only http:// and https:// URLs are supported")
        }
        guard ASCII.isToken(method) else { throw HTTPClientError.invalidRequest("invalid method") }
        let secure = scheme == "https"
        let defaultPort = secure ? 443 : 80
        let port = url.port ?? defaultPort
        let context = secure ? try trust() : nil
        let target: ClientAddress
        if let address { target = address } else { target = try await resolve(host: host, port: port, deadline: deadline) }
        let job = ClientJob(
            key: ClientPool.Key(host: host, port: port, secure: secure, pinned: address), address: target, tls: context,
            bytes: try Self.serialize(method: method, url: url, host: host, port: port == defaultPort ? nil : port,
                                      headers: headers, body: body),
            isHead: method == "HEAD",
            idempotent: ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(method),
            deadline: deadline, maxBodyBytes: max(0, maxBodyBytes ?? maxResponseBodyBytes))
        let (loop, pool) = try loopAndPool()
        let response = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ResponseParser.Response, any Error>) in
            job.completion = { continuation.resume(with: $0.mapError { $0 as any Error }) }
            loop.execute { pool.perform(job) }
        }
        return (response.status, response.headers, response.body)
    }

    /// Every address of `host`, looked up now (never cached: each caller judges what it gets).
    public static func addresses(of host: String, port: Int, timeout: Duration) async -> [ClientAddress] {
        await NameLookups.shared.resolve(host: host, port: port, deadline: monotonicNanos() + timeout.nanoseconds)
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

    private func resolve(host: String, port: Int, deadline: UInt64) async throws -> ClientAddress {
        let key = "\(host):\(port)"
        if let cached = addresses.withLock({ $0[key] }) { return cached }
        guard let address = await NameLookups.shared.resolve(host: host, port: port, deadline: deadline).first else {
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
            if ["host", "content-length", "transfer-encoding", "connection", "accept-encoding"].contains(lower) { continue }
            // CR, LF or NUL from a caller's value could end the line and smuggle in a header.
            head += name + ": " + String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }) + "\r\n"
        }
        // Only bodies as they are: a compressed one is refused (see `ResponseParser`).
        head += "Accept-Encoding: identity\r\n"
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
    let maxBodyBytes: Int
    var retried = false
    var completion: ((Result<ResponseParser.Response, HTTPClientError>) -> Void)?

    init(key: ClientPool.Key, address: ClientAddress, tls: TLSContext?, bytes: [UInt8], isHead: Bool, idempotent: Bool,
         deadline: UInt64, maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
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
