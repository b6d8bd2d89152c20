import Foundation
import NetworkIO

/// Maps the API's absolute image URLs to the panel's `/media/…` route and back. Only URLs on the
/// configured API origin (and on media origins the operator configured, e.g. the real API's
/// image bucket) are mapped, and the route maps a *path* onto such an origin — never a host
/// taken from the request — so `/media` cannot be used to fetch anything else.
struct MediaLinks: Sendable {
    /// scheme, host and port of one allowed origin.
    struct Origin: Sendable, Equatable {
        let scheme: String
        let host: String
        let port: Int

        init(_ url: URL) {
            scheme = (url.scheme ?? "http").lowercased()
            host = Origin.normalizedHost(url.host ?? "")
            port = url.port ?? (scheme == "https" ? 443 : 80)
        }

        func matches(_ components: URLComponents) -> Bool {
            (components.scheme ?? "").lowercased() == scheme
                && Origin.normalizedHost(components.host ?? "") == host
                && (components.port ?? (scheme == "https" ? 443 : 80)) == port
        }

        func url(encodedPath: String) -> URL? {
            let shownHost = HostName.bracketed(host)
            let defaultPort = scheme == "https" ? 443 : 80
            let authority = port == defaultPort ? shownHost : "\(shownHost):\(port)"
            return URL(string: "\(scheme)://\(authority)/\(encodedPath)")
        }

        /// `localhost` and `127.0.0.1` name the same loopback API (the sandbox writes either).
        static func normalizedHost(_ host: String) -> String {
            let lower = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return lower == "localhost" ? "127.0.0.1" : lower
        }
    }

    let api: Origin
    /// Further origins, reached as `/media/_o1/…`, `/media/_o2/…` in this order.
    let extra: [Origin]
    /// "http://host:port/" exactly as configured: most image URLs start with it, and a prefix
    /// check is far cheaper than parsing 20 URLs per list page.
    private let originPrefix: String

    init(apiBaseURL: URL, extraOrigins: [URL] = []) {
        api = Origin(apiBaseURL)
        extra = extraOrigins.map(Origin.init)
        let host = apiBaseURL.host ?? ""
        let shownHost = HostName.bracketed(host)
        originPrefix = "\(api.scheme)://\(shownHost)" + (apiBaseURL.port.map { ":\($0)" } ?? "") + "/"
    }

    /// `/media/<path>` for an image on an allowed origin, nil for anything else.
    func panelPath(for imageURL: String) -> String? {
        // Byte-wise: String.hasPrefix compares by Unicode equivalence, far slower than needed here.
        // Only a path of plain RFC 3986 path characters (no query, fragment or stray `%`) is taken
        // without parsing: `URLComponents` keeps such a path as it is, so the result is the same.
        let bytes = imageURL.utf8
        if bytes.starts(with: originPrefix.utf8) {
            let path = bytes.dropFirst(originPrefix.utf8.count)
            if !path.isEmpty, Self.isPlainPath(path), let text = String(path) {
                return "/media/" + text
            }
        }
        return parsedPanelPath(for: imageURL)
    }

    /// The full parse, for any other shape of address (other origins, queries, odd characters).
    func parsedPanelPath(for imageURL: String) -> String? {
        guard let components = URLComponents(string: imageURL) else { return nil }
        let path = components.percentEncodedPath
        guard path.hasPrefix("/"), path.count > 1 else { return nil }
        if api.matches(components) { return "/media" + path }
        if let index = extra.firstIndex(where: { $0.matches(components) }) { return "/media/_o\(index + 1)" + path }
        return nil
    }

    /// Unreserved, sub-delims, `:`, `@`, `/` and `%` followed by two hex digits.
    private static func isPlainPath(_ path: Substring.UTF8View) -> Bool {
        var index = path.startIndex
        while index != path.endIndex {
            let byte = path[index]
            if byte == UInt8(ascii: "%") {
                let first = path.index(after: index)
                guard first != path.endIndex, isHexDigit(path[first]) else { return false }
                let second = path.index(after: first)
                guard second != path.endIndex, isHexDigit(path[second]) else { return false }
                index = path.index(after: second)
                continue
            }
            guard isPathCharacter(byte) else { return false }
            index = path.index(after: index)
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            // - . _ ~ ! $ & ' ( ) * + , ; = : @ /
            return "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }

    /// The upstream URL for the route's rest-of-path (already percent-decoded by the router).
    /// Refuses dot segments and empty paths; re-encodes each segment.
    func upstreamURL(forPath decodedPath: String) -> URL? {
        var segments = decodedPath.split(separator: "/", omittingEmptySubsequences: false)
        guard !decodedPath.isEmpty, !segments.contains(where: { $0 == ".." || $0 == "." }),
              !decodedPath.contains("\0") else { return nil }
        var origin = api
        if !extra.isEmpty, let first = segments.first, first.hasPrefix("_o"), let number = Int(first.dropFirst(2)) {
            guard extra.indices.contains(number - 1), segments.count > 1 else { return nil }
            origin = extra[number - 1]
            segments.removeFirst()
        }
        let encoded = segments.map { PercentEncoding.encode($0, keeping: PercentEncoding.isSegmentCharacter) }
            .joined(separator: "/")
        return origin.url(encodedPath: encoded)
    }
}
