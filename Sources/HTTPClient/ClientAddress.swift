import Foundation
import NetworkIO

/// A resolved socket address for an upstream host.
struct ClientAddress: Sendable {
    var storage: sockaddr_storage
    var length: socklen_t
    var family: Int32

    /// Blocking (a DNS name may take seconds); the client calls it off the concurrency pool and
    /// caches what it finds.
    static func resolve(host: String, port: Int) -> ClientAddress? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else { return nil }
        defer { freeaddrinfo(info) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return ClientAddress(storage: storage, length: first.pointee.ai_addrlen, family: first.pointee.ai_family)
    }
}
