/// Header names the server reads or writes on most requests, so they are compared as one byte
/// (an enum case) instead of case-insensitively as Strings, and written from a static spelling.
///
/// The first eight are the request headers the parser indexes (`RequestFieldIndex`); their raw
/// values are the index's slots.
public enum KnownHeader: UInt8, CaseIterable, Sendable {
    // Indexed in every parsed request.
    case host = 0, contentLength, transferEncoding, connection, cookie, origin, ifNoneMatch, expect
    // Set on responses (or managed by the connection).
    case date, contentType, location, cacheControl, setCookie, etag, lastModified, allow, retryAfter, vary
    case contentDisposition, contentSecurityPolicy, xContentTypeOptions, referrerPolicy, xFrameOptions
    case crossOriginOpenerPolicy, permissionsPolicy, strictTransportSecurity

    /// The canonical spelling, as written on the wire when a field is named by its case.
    public var name: String { Self.names[Int(rawValue)] }

    private static let names = [
        "Host", "Content-Length", "Transfer-Encoding", "Connection", "Cookie", "Origin", "If-None-Match", "Expect",
        "Date", "Content-Type", "Location", "Cache-Control", "Set-Cookie", "ETag", "Last-Modified", "Allow",
        "Retry-After", "Vary", "Content-Disposition", "Content-Security-Policy", "X-Content-Type-Options",
        "Referrer-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy", "Permissions-Policy",
        "Strict-Transport-Security",
    ]

    /// The lowercased spellings grouped by length, so a lookup compares only names of its length.
    private static let byLength: [[(KnownHeader, [UInt8])]] = {
        var table = [[(KnownHeader, [UInt8])]](repeating: [], count: 32)
        for header in allCases {
            let lower = header.name.utf8.map(ASCII.lowercased)
            table[lower.count].append((header, lower))
        }
        return table
    }()

    /// The case a name spells, ignoring ASCII case; nil for any other name.
    public init?(_ name: String) {
        var copy = name
        guard let found = copy.withUTF8({ Self.find(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = found
    }

    /// The case the bytes of a field name spell, ignoring ASCII case.
    static func find(_ bytes: UnsafeRawBufferPointer) -> KnownHeader? {
        guard bytes.count < byLength.count else { return nil }
        candidates: for (header, lower) in byLength[bytes.count] {
            for i in 0..<lower.count where ASCII.lowercased(bytes[i]) != lower[i] { continue candidates }
            return header
        }
        return nil
    }

    static func find(_ bytes: ArraySlice<UInt8>) -> KnownHeader? {
        bytes.withUnsafeBytes { find($0) }
    }

    /// Set by the connection from the message itself; a handler's values are ignored.
    var isManagedByConnection: Bool {
        self == .contentLength || self == .transferEncoding || self == .connection || self == .date
    }
}
