import Foundation

/// Limits and deadlines, named in one place (defaults from the issue).
public struct ServerLimits: Sendable {
    public var maxRequestLineBytes = 8 * 1024
    public var maxHeaderBytes = 32 * 1024
    public var maxHeaderCount = 100
    /// The largest body accepted where a route names no limit of its own.
    public var defaultBodyLimit = 1024 * 1024
    /// A chunk-size line with its extensions.
    public var maxChunkLineBytes = 1024
    /// Open connections at most (`--max-connections`). When full, the longest-idle connections
    /// (waiting for a request) are closed to admit new ones, so a flood of idle connections
    /// cannot lock people out; when none is idle, new clients wait in the kernel's backlog.
    /// The server also stays below the process's open-file limit (see `DescriptorLimit`).
    public var maxConnections = 10_000
    /// From the first byte of a request to the end of its head.
    public var headerTimeout: Duration = .seconds(10)
    /// A kept-alive connection with no request in progress.
    public var idleTimeout: Duration = .seconds(30)
    /// Longest time without receiving any byte of a body being uploaded.
    public var bodyTimeout: Duration = .seconds(30)
    /// Longest time a response write may make no progress.
    public var writeTimeout: Duration = .seconds(30)
    /// An unread request body up to this size is drained so the connection can be reused;
    /// a larger one closes the connection.
    public var maxDrainBytes = 256 * 1024
    /// A pushed stream (`HTTPResponse.stream`) whose reader took no byte of what waits for it
    /// this long is dropped: a reader that stopped reading must not hold the server's memory.
    public var streamStallTimeout: Duration = .seconds(30)
    /// Bytes a pushed stream may have waiting for its reader; a stream over it is dropped, so
    /// nothing queues without bound behind a slow reader.
    public var maxStreamBacklog = 256 * 1024

    public init() {}
}

/// One line of the access log. Only the route template is kept, never the real path, the query
/// string or cookies: they can carry identifiers and secrets.
public struct AccessLogEntry: Sendable {
    public var method: String
    /// The route template (`/products/{id}`), or `-` when no route matched.
    public var route: String
    public var status: Int
    /// Body bytes sent.
    public var bytes: Int
    public var duration: Duration

    public var line: String {
        // Tenths of a millisecond in integers: `String(format:)` cost more than the rest of the line.
        let tenths = duration.components.seconds * 10_000 + duration.components.attoseconds / 100_000_000_000_000
        return "\(method) \(route) \(status) \(bytes)B \(tenths / 10).\(tenths % 10)ms"
    }

    /// The default logger: one line per request on standard error, written by
    /// `AccessLogWriter.standardError`'s own thread (an event loop never waits for the log).
    public static let standardError: @Sendable (AccessLogEntry) -> Void = { entry in
        AccessLogWriter.standardError.write(entry.line)
    }
}

/// Where a server's access-log entries go.
public enum AccessLogDestination: Sendable {
    /// Each event loop writes a fixed record into its own ring (no lock shared between loops);
    /// the writer's thread formats the line and writes it. A full ring drops and counts.
    case writer(AccessLogWriter)
    /// Called on the connection's event loop right after the last byte; must not block.
    case observer(@Sendable (AccessLogEntry) -> Void)
}

public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 asks the system for a free port; `HTTPServer.port` reports it.
    public var port: Int
    public var limits: ServerLimits
    /// Where each request's log entry goes; nil turns the access log off. By default, through
    /// each event loop's ring to `AccessLogWriter.standardError`.
    public var accessLogDestination: AccessLogDestination? = .writer(.standardError)
    /// Called once per request on the connection's event loop (observers, tests); nil turns the
    /// access log off. Reading it after a `.writer` destination answers a closure writing there.
    public var accessLog: (@Sendable (AccessLogEntry) -> Void)? {
        get {
            switch accessLogDestination {
            case .writer(let writer): { writer.write($0.line) }
            case .observer(let observe): observe
            case nil: nil
            }
        }
        set { accessLogDestination = newValue.map(AccessLogDestination.observer) }
    }
    /// Threads running event loops (each owns a share of the connections).
    public var eventLoopCount: Int
    /// Run each handler task on the event loop of its connection (no thread hand-offs: fastest)
    /// rather than on the global concurrent executor. Either way a handler is a Swift task; on
    /// the loop, a handler that blocks (long CPU work, blocking I/O) delays that loop's other
    /// connections. Blocking work belongs on a thread of its own in either case: detached tasks
    /// and, on Linux, `DispatchQueue.global()` share the same few cooperative threads.
    public var runHandlersOnEventLoops: Bool
    /// Wraps every accepted socket in a transport: `PlainTransport` (the default) or TLS.
    /// Called on the connection's event loop; a throw closes the socket. The header deadline
    /// also bounds the transport's handshake (`ConnectionTransport.isHandshaking`).
    public var transportFactory: ConnectionTransportFactory = PlainTransport.factory

    /// One loop per core, at most 4: sockets are cheap to drive, handlers get the rest.
    public static var defaultEventLoopCount: Int { max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Logs to standard error through the loops' rings (`accessLogDestination`).
    public init(host: String = "127.0.0.1", port: Int = 8080, limits: ServerLimits = ServerLimits(),
                eventLoopCount: Int = ServerConfiguration.defaultEventLoopCount, runHandlersOnEventLoops: Bool = false,
                transportFactory: @escaping ConnectionTransportFactory = PlainTransport.factory) {
        self.transportFactory = transportFactory
        self.host = host
        self.port = port
        self.limits = limits
        self.eventLoopCount = max(1, eventLoopCount)
        self.runHandlersOnEventLoops = runHandlersOnEventLoops
    }

    /// Calls `accessLog` on the loop for each request (nil: no access log).
    public init(host: String = "127.0.0.1", port: Int = 8080, limits: ServerLimits = ServerLimits(),
                accessLog: (@Sendable (AccessLogEntry) -> Void)?,
                eventLoopCount: Int = ServerConfiguration.defaultEventLoopCount, runHandlersOnEventLoops: Bool = false,
                transportFactory: @escaping ConnectionTransportFactory = PlainTransport.factory) {
        self.init(host: host, port: port, limits: limits, eventLoopCount: eventLoopCount,
                  runHandlersOnEventLoops: runHandlersOnEventLoops, transportFactory: transportFactory)
        self.accessLog = accessLog
    }
}
