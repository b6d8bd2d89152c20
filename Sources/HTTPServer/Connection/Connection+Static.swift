import Foundation

/// The synchronous static path: a GET or HEAD for a file under a `StaticRoute` prefix is
/// answered right here on the loop, from a precomputed head, without a Task or the middlewares.
extension Connection {
    /// True when the request was answered (queued); false sends it down the ordinary path.
    func answerStatically(_ head: RequestHead) -> Bool {
        let routes = context.staticRoutes
        guard !routes.isEmpty, head.method == "GET" || head.method == "HEAD",
              head.framing == .none || head.framing == .length(0) else { return false }
        for index in routes.indices {
            guard let relativePath = Self.plainPath(head.targetBytes, under: routes[index].prefix) else { continue }
            let route = routes[index]
            guard admits(host: head.firstValue(.host), route: route) else { return false }
            // The Date cache's second doubles as the stat interval's clock (one time() per request).
            let date = home.dates.currentBytes()
            guard let file = home.staticHeads(route: index, of: routes.count)
                .head(for: relativePath, route: route, now: home.dates.second)
            else { return false }
            return answer(head, with: file, route: route, date: date)
        }
        return false
    }

    /// Asks the route about a Host it has not admitted on this connection yet (clients send the
    /// same Host on every request of a connection: one check, then a string comparison).
    /// The Host stays bytes of the head until it must be remembered (a String: up to 15 bytes,
    /// such as `127.0.0.1:18090`, it is stored inline, without an allocation per connection).
    private func admits(host: ArraySlice<UInt8>?, route: StaticRoute) -> Bool {
        if let host, let admittedHost, admittedHost.utf8.elementsEqual(host) { return true }
        let hostString = host.map { String(decoding: $0, as: UTF8.self) }
        guard route.admitsHost(hostString) else { return false }
        admittedHost = hostString
        return true
    }

    private func answer(_ head: RequestHead, with file: StaticHead, route: StaticRoute, date: [UInt8]) -> Bool {
        let notModified = head.firstValue(.ifNoneMatch).map {
            EntityTag.matches(ifNoneMatch: String(decoding: $0, as: UTF8.self), etag: file.file.etag)
        } ?? false
        let sendsBody = !notModified && head.method == "GET"
        let size = file.file.stamp.size
        if sendsBody && file.file.data == nil && size > 0 {
            // Large: sent from the file. It changed since the last stat: let the ordinary path decide.
            guard writer.queueFile(path: file.file.path, size: size) else { return false }
        }
        // A request without a body: the parser's next event is its end, taken here as the
        // ordinary path takes it while the handler runs.
        let end = parser.next()
        assert(end == .end, "a request without a body ends right after its head")
        let exchange = Exchange(method: head.method, version: head.version, framing: .none, body: home.emptyBody,
                                clientAllows: head.keepAlive ? .keepAlive : .close)
        exchange.route = route.template
        exchange.reception = .complete
        exchange.status = notModified ? 304 : 200
        exchange.after = KeepAlivePolicy.afterResponse(
            decided: .keepAlive, clientKeepAlive: head.keepAlive, serverDraining: context.isDraining,
            inputEnded: parser.inputEnded, bufferedBytes: parser.bufferedByteCount, responseConnection: nil,
            delimitedByClose: false)
        state = .writing(exchange)
        (notModified ? file.notModified : file.ok).write(date: date,
                                                         keepAlive: exchange.after == .keepAlive,
                                                         version: head.version, into: &writer)
        if sendsBody {
            if let data = file.file.data { writer.appendShared(data) }   // one sendmsg with the head, no copy
            exchange.bytesSent = size
        }
        // The caller's parse loop goes on to a pipelined request.
        flush()
        return true
    }

    /// The path under `prefix` when the target spells it plainly: only unreserved characters
    /// (so percent-decoding would change nothing), no empty segment, none starting with a dot,
    /// not ending in `/` — what `StaticFiles.isSafe` accepts, checked on the raw bytes. Any
    /// other spelling gets nil and goes the ordinary way, which knows how to refuse it.
    static func plainPath(_ target: ArraySlice<UInt8>, under prefix: [UInt8]) -> String? {
        target.withUnsafeBufferPointer { bytes -> String? in
            guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
            var end = prefix.count
            var segmentStart = true
            while end < bytes.count, bytes[end] != UInt8(ascii: "?") {
                let b = bytes[end]
                if b == UInt8(ascii: "/") {
                    if segmentStart { return nil }
                    segmentStart = true
                } else {
                    guard Self.isUnreserved(b), !(segmentStart && b == UInt8(ascii: ".")) else { return nil }
                    segmentStart = false
                }
                end += 1
            }
            guard !segmentStart else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[prefix.count..<end]), as: UTF8.self)
        }
    }

    /// RFC 3986 unreserved: letters, digits, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
