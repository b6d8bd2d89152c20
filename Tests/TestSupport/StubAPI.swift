import Foundation
import HTTPServer
import TLS
#if canImport(Glibc)
import Glibc
#endif

/// The tests' one stand-in for an API (the Open Market API, a media origin, any upstream), on an
/// ephemeral loopback port, programmed one of two ways:
///
/// - **Answers** (`StubAPI { request in … }` or `StubAPI(router:)`): HTTP answers made by the
///   project's own `HTTPServer`, so keep-alive, streamed bodies, slow async answers and TLS
///   (`tls:` a self-signed certificate) behave as a real server's do.
/// - **Faults** (`StubAPI(faults:)`): a program per connection on a raw blocking socket, for
///   what no real server sends: resets, closes mid-answer, malformed or endless heads, bodies
///   longer than declared, answers that trickle or never come. `canned(_:)` is the simplest.
///
/// Either way it counts the connections it accepted and the requests it was asked, and
/// `stop()` ends it (with `withServer` or `Teardown.add`).
public final class StubAPI: StoppableServer, @unchecked Sendable {
    public let port: Int
    /// The certificate an answering stub presents (its owner removes it).
    public let certificate: SelfSignedTestCertificate?
    private let engine: Engine
    private let counts: Counts

    private enum Engine {
        case server(HTTPServer)
        case raw(RawListener)
    }

    /// `http://127.0.0.1:PORT`, or `https://…` with a certificate.
    public var url: URL { URL(string: "\(certificate == nil ? "http" : "https")://127.0.0.1:\(port)")! }
    /// Requests asked so far (through the answer closure, or read by a fault program).
    public var requests: Int { counts.value.requests }
    /// Connections accepted so far.
    public var connections: Int { counts.value.connections }
    /// Connections open right now.
    public var openConnections: Int {
        switch engine {
        case .server(let server): server.openConnections
        case .raw(let listener): listener.openConnections
        }
    }
    /// Every request a fault program read, in order (answering stubs keep none).
    public var received: [StubRequest] { counts.value.received }

    // MARK: Answers

    /// Answers every request with `answer`; `bodyLimit` bounds request bodies (uploads pass).
    public convenience init(tls certificate: SelfSignedTestCertificate? = nil, bodyLimit: Int = 32 << 20,
                            _ answer: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) throws {
        let counts = Counts()
        var router = Router()
        router.notFoundHandler = { request, _ in
            counts.update { $0.requests += 1 }
            return try await answer(request)
        }
        try self.init(tls: certificate, bodyLimit: bodyLimit, router: router, counts: counts)
    }

    /// Answers with `router`'s routes (requests are not counted: the routes are the test's).
    public convenience init(tls certificate: SelfSignedTestCertificate? = nil, bodyLimit: Int = 32 << 20, router: Router<BasicRequestContext>) throws {
        try self.init(tls: certificate, bodyLimit: bodyLimit, router: router, counts: Counts())
    }

    private init(tls certificate: SelfSignedTestCertificate?, bodyLimit: Int, router: Router<BasicRequestContext>, counts: Counts) throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = nil
        configuration.limits.defaultBodyLimit = bodyLimit
        let base: ConnectionTransportFactory = try certificate.map { TLSTransport.factory(context: try $0.serverContext()) }
            ?? PlainTransport.factory
        configuration.transportFactory = { fd in
            counts.update { $0.connections += 1 }
            return try base(fd)
        }
        let server = HTTPServer(configuration: configuration, router: router)
        port = try server.start()
        engine = .server(server)
        self.certificate = certificate
        self.counts = counts
    }

    // MARK: Faults

    /// Runs `program` for each accepted connection, on a thread of its own (never on the Swift
    /// concurrency pool the servers under test need). The connection closes when it returns.
    public init(faults program: @escaping @Sendable (StubConnection) -> Void) throws {
        let counts = Counts()
        let listener = try RawListener(counts: counts, program: program)
        port = listener.port
        engine = .raw(listener)
        certificate = nil
        self.counts = counts
    }

    /// Answers every request with the same raw bytes, however broken, then closes.
    public static func canned(_ answer: String) throws -> StubAPI {
        try StubAPI(faults: { connection in
            guard connection.readRequest() != nil else { return }
            connection.write(answer)
        })
    }

    public func stop() async {
        switch engine {
        case .server(let server): await server.shutdown(deadline: .seconds(1))
        case .raw(let listener): listener.stop()
        }
    }

    /// A loopback address nobody listens on. The socket stays bound (never listening) for the
    /// rest of the test process: connections to it are refused, and no other test's server can
    /// be given the same port meanwhile (a closed one was, and a test then got its 404s).
    public static func closedPort() throws -> URL {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { close(fd); throw POSIXError(.EADDRINUSE) }
        return URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
    }

    /// What a stub counted, under one lock.
    final class Counts: @unchecked Sendable {
        struct Value {
            var requests = 0
            var connections = 0
            var received: [StubRequest] = []
        }
        private let lock = NSLock()
        private var stored = Value()
        var value: Value { lock.withLock { stored } }
        func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
    }
}

/// One request as a fault program read it: its parts, and the exact bytes.
public struct StubRequest: Sendable {
    public var method: String
    /// The request target as sent (path and query).
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Head and body exactly as they arrived.
    public var raw: [UInt8]

    public var path: String { String(target.prefix { $0 != "?" }) }
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}
