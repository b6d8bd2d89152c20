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

    /// The case a name spells, ignoring ASCII case; nil for any other name.
    public init?(_ name: String) {
        guard let found = Self.find(name.utf8.span) else { return nil }
        self = found
    }

    /// The case the bytes of a field name spell, ignoring ASCII case. A switch on the length,
    /// then static spellings: this runs for every field parsed and every name looked up, so it
    /// neither allocates nor retains anything.
    static func find(_ bytes: Span<UInt8>) -> KnownHeader? {
        func spells(_ lower: StaticString) -> Bool {
            let p = lower.utf8Start
            for i in 0..<bytes.count where ASCII.lowercased(bytes[i]) != p[i] { return false }
            return true
        }
        switch bytes.count {
        case 4:
            if spells("host") { return .host }
            if spells("date") { return .date }
            if spells("etag") { return .etag }
            if spells("vary") { return .vary }
        case 5: if spells("allow") { return .allow }
        case 6:
            if spells("cookie") { return .cookie }
            if spells("origin") { return .origin }
            if spells("expect") { return .expect }
        case 8: if spells("location") { return .location }
        case 10:
            if spells("connection") { return .connection }
            if spells("set-cookie") { return .setCookie }
        case 11: if spells("retry-after") { return .retryAfter }
        case 12: if spells("content-type") { return .contentType }
        case 13:
            if spells("if-none-match") { return .ifNoneMatch }
            if spells("cache-control") { return .cacheControl }
            if spells("last-modified") { return .lastModified }
        case 14: if spells("content-length") { return .contentLength }
        case 15:
            if spells("x-frame-options") { return .xFrameOptions }
            if spells("referrer-policy") { return .referrerPolicy }
        case 17: if spells("transfer-encoding") { return .transferEncoding }
        case 18: if spells("permissions-policy") { return .permissionsPolicy }
        case 19: if spells("content-disposition") { return .contentDisposition }
        case 22: if spells("x-content-type-options") { return .xContentTypeOptions }
        case 23: if spells("content-security-policy") { return .contentSecurityPolicy }
        case 25: if spells("strict-transport-security") { return .strictTransportSecurity }
        case 26: if spells("cross-origin-opener-policy") { return .crossOriginOpenerPolicy }
        default: break
        }
        return nil
    }

    static func find(_ bytes: ArraySlice<UInt8>) -> KnownHeader? {
        find(bytes.span)
    }

    /// Set by the connection from the message itself; a handler's values are ignored.
    var isManagedByConnection: Bool {
        self == .contentLength || self == .transferEncoding || self == .connection || self == .date
    }
}
