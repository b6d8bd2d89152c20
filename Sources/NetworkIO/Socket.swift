import CEpoll
import Foundation

/// Thin wrappers over the socket system calls the server needs; each turns errno into a result.
///
/// Raw buffers because the system calls take a pointer and a length, and because the callers
/// lend memory no array owns (the loop's receive buffer, a TLS scratch buffer, a slice of a
/// response being written): no copy between the kernel and the parser. The `sockaddr`
/// rebinding is how the C API spells "one of several address layouts"; each rebinding is to a
/// type no larger than `sockaddr_storage`. Exercised under ASan by the `HTTPServerTests` and
/// `HTTPClientTests` suites (partial writes, resets, pipelining).
public enum Socket {
    public enum IOResult: Sendable, Equatable {
        case done(Int)
        case wouldBlock
        case closed
        case failed(Int32)
    }

    /// Reads once, retrying on EINTR.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .done(n) }
            if n == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Writes once (a partial write is reported as such), retrying on EINTR. MSG_NOSIGNAL keeps a
    /// vanished peer from raising SIGPIPE.
    public static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult {
        while true {
            let n = send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .done(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Writes two buffers with one `sendmsg` (a response head and a body kept elsewhere), so
    /// neither is copied into the other; partial writes are reported as for `write`.
    public static func write(_ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> IOResult {
        var parts = [iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
                     iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)]
        return parts.withUnsafeMutableBufferPointer { vector in
            var message = msghdr()
            message.msg_iov = vector.baseAddress
            message.msg_iovlen = 2
            while true {
                let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                if n >= 0 { return .done(n) }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                default: return .failed(errno)
                }
            }
        }
    }

    /// Sends up to `count` bytes of `file` from `offset` without copying through user space.
    public static func sendFile(_ fd: Int32, file: Int32, offset: inout Int, count: Int) -> IOResult {
        while true {
            var off = off_t(offset)
            let n = sendfile(fd, file, &off, count)
            if n >= 0 { offset = Int(off); return .done(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// True when reading `fd` would not block now (for a listening socket: a client waits).
    public static func isReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    public static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A non-blocking listening socket bound to host:port. Returns the descriptor and real port.
    public static func listen(host: String, port: Int, backlog: Int32 = 4096) throws -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &info)
        guard rc == 0, let first = info else {
            throw ServerError.bind("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                        | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError.bind("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ServerError.bind("cannot bind \(host):\(port): \(message)")
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ServerError.bind("listen: \(message)")
        }
        return (fd, localPort(fd))
    }

    public static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        return port(of: storage)
    }

    public static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { p in
            if family == AF_INET6 {
                return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// "127.0.0.1" or "::1" for a peer address.
    public static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let rc = withUnsafePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, socklen_t(MemoryLayout<sockaddr_storage>.size), &host, socklen_t(host.count), nil, 0,
                            NI_NUMERICHOST)
            }
        }
        guard rc == 0 else { return "" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
