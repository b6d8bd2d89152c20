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
        var imageURL = imageURL
        switch imageURL.withUTF8({ plainAnswer(for: $0) }) {
        case .path(let path): return path
        case .parse: return parsedPanelPath(for: imageURL)
        }
    }

    /// What the full parse would answer, when the address is plain enough to know it without one.
    private enum PlainAnswer {
        case path(String?)
        /// Not plain: only the full parse can tell.
        case parse
    }

    /// Byte-wise on the address's UTF-8: `String.hasPrefix` and `contains` compare by Unicode
    /// equivalence, and `URLComponents` costs thousands of instructions, for 20 images per page.
    /// Only a path of plain RFC 3986 path characters (no query, fragment or stray `%`) is taken
    /// without parsing: `URLComponents` keeps such a path as it is, so the result is the same.
    private func plainAnswer(for url: UnsafeBufferPointer<UInt8>) -> PlainAnswer {
        let prefixLength = originPrefix.utf8.count
        if url.count > prefixLength, originPrefix.utf8.elementsEqual(url[..<prefixLength]) {
            let path = url[prefixLength...]
            if Self.isPlainPath(path) { return .path("/media/" + String(decoding: UnsafeBufferPointer(rebasing: path), as: UTF8.self)) }
        }
        guard let plain = PlainAbsoluteURL(url) else { return .parse }
        return .path(panelPath(for: plain))
    }

    /// What the full parse gives for a plain address: its path under the origin it names, or
    /// nil for an origin not allowed (most images of other stores: no parse just to refuse them).
    private func panelPath(for url: PlainAbsoluteURL) -> String? {
        guard url.path.count > 1 else { return nil }
        let host = url.host == "localhost" ? "127.0.0.1" : url.host
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        func named(_ origin: Origin) -> Bool { origin.scheme == url.scheme && origin.host == host && origin.port == port }
        if named(api) { return "/media" + url.path }
        if let index = extra.firstIndex(where: named) { return "/media/_o\(index + 1)" + url.path }
        return nil
    }

    /// `http(s)://host[:port]/path` in the plainest spelling: a lowercase name or IPv4 host, a
    /// port without leading zeros, a path of plain path characters. `URLComponents` takes each
    /// part of such an address as it is written, so reading it by hand gives the same answer.
    private struct PlainAbsoluteURL {
        let scheme: String
        let host: String
        let port: Int?
        let path: String

        init?(_ url: UnsafeBufferPointer<UInt8>) {
            if "https://".utf8.elementsEqual(url.prefix(8)) {
                scheme = "https"
            } else if "http://".utf8.elementsEqual(url.prefix(7)) {
                scheme = "http"
            } else {
                return nil
            }
            let hostStart = scheme.utf8.count + 3
            var index = hostStart
            while index < url.count, MediaLinks.isHostCharacter(url[index]) { index += 1 }
            guard index > hostStart, index < url.count else { return nil }
            host = String(decoding: UnsafeBufferPointer(rebasing: url[hostStart..<index]), as: UTF8.self)
            if url[index] == UInt8(ascii: ":") {
                index += 1
                let digitsStart = index
                var number = 0
                while index < url.count, index - digitsStart < 5, (0x30...0x39).contains(url[index]) {
                    number = number * 10 + Int(url[index] - 0x30)
                    index += 1
                }
                // More than five digits leave a digit where the path's `/` must be.
                guard index > digitsStart, url[digitsStart] != UInt8(ascii: "0"), number <= 65_535 else { return nil }
                port = number
            } else {
                port = nil
            }
            let pathBytes = url[index...]
            guard pathBytes.first == UInt8(ascii: "/"), MediaLinks.isPlainPath(pathBytes) else { return nil }
            path = String(decoding: UnsafeBufferPointer(rebasing: pathBytes), as: UTF8.self)
        }
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
    private static func isPlainPath(_ path: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = path.startIndex
        while index != path.endIndex {
            let byte = path[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < path.endIndex, isHexDigit(path[index + 1]), isHexDigit(path[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isPathCharacter(byte) else { return false }
            index += 1
        }
        return true
    }

    /// A lowercase host name or IPv4 address (the spellings `URLComponents` keeps as they are).
    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        // A switch, not a search in a string of them: this runs on every byte of 20 image paths per list page.
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            true
        default:
            false
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
