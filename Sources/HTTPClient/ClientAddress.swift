import Foundation
import NetworkIO

/// One resolved socket address of an upstream host: what a connection goes to, and its bytes
/// for whoever must judge it first (4 for IPv4, 16 for IPv6).
public struct ClientAddress: Sendable, Hashable {
    var storage: sockaddr_storage
    var length: socklen_t
    var family: Int32
    /// The address itself, in network order.
    public let bytes: [UInt8]

    public static func == (a: ClientAddress, b: ClientAddress) -> Bool {
        a.family == b.family && a.bytes == b.bytes && a.port == b.port
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(bytes)
        hasher.combine(port)
    }

    /// The port the address connects to.
    public var port: Int {
        withUnsafeBytes(of: storage) { raw in
            // sin_port and sin6_port sit at the same offset, in network order.
            Int(UInt16(raw[2]) << 8 | UInt16(raw[3]))
        }
    }

    /// Blocking: the first address `host` has, as the client connects when nobody chose one.
    static func resolve(host: String, port: Int) -> ClientAddress? { resolveAll(host: host, port: port).first }

    /// Blocking (a DNS name may take seconds): every address `host` has (at most 16, in the
    /// resolver's order). Callers use `NameLookups`, never a thread of the concurrency pool.
    static func resolveAll(host: String, port: Int) -> [ClientAddress] { addresses(host: host, port: port, flags: 0) }

    /// `host` when it is an address literal (`127.0.0.1`, `::1`), at once: getaddrinfo asks no
    /// resolver then. Empty for a name.
    static func literal(host: String, port: Int) -> [ClientAddress] { addresses(host: host, port: port, flags: AI_NUMERICHOST) }

    private static func addresses(host: String, port: Int, flags: Int32) -> [ClientAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | flags
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0 else { return [] }
        defer { freeaddrinfo(info) }
        var found: [ClientAddress] = []
        var cursor = info
        while let entry = cursor, found.count < 16 {
            cursor = entry.pointee.ai_next
            let family = entry.pointee.ai_family
            let length = Int(entry.pointee.ai_addrlen)
            guard (family == AF_INET && length >= MemoryLayout<sockaddr_in>.size)
                    || (family == AF_INET6 && length >= MemoryLayout<sockaddr_in6>.size),
                  length <= MemoryLayout<sockaddr_storage>.size else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: entry.pointee.ai_addr, count: length))
            }
            let bytes: [UInt8] = withUnsafeBytes(of: storage) { raw in
                family == AF_INET ? Array(raw[4..<8]) : Array(raw[8..<24])   // sin_addr, sin6_addr
            }
            found.append(ClientAddress(storage: storage, length: socklen_t(length), family: family, bytes: bytes))
        }
        return found
    }
}
