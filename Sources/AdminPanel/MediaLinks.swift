import Foundation

/// Maps the API's absolute image URLs to the panel's `/media/…` route and back. Only URLs on the
/// configured API origin are mapped, and the route maps a *path* onto that origin — never a
/// host — so `/media` cannot be used to fetch anything else.
struct MediaLinks: Sendable {
    let scheme: String
    let host: String
    let port: Int
    /// "http://host:port/" exactly as configured: most image URLs start with it, and a prefix
    /// check is far cheaper than parsing 20 URLs per list page.
    private let originPrefix: String

    init(apiBaseURL: URL) {
        scheme = (apiBaseURL.scheme ?? "http").lowercased()
        host = MediaLinks.normalizedHost(apiBaseURL.host ?? "")
        port = apiBaseURL.port ?? (scheme == "https" ? 443 : 80)
        let shownHost = (apiBaseURL.host ?? "").contains(":") ? "[\(apiBaseURL.host ?? "")]" : (apiBaseURL.host ?? "")
        originPrefix = "\(scheme)://\(shownHost)" + (apiBaseURL.port.map { ":\($0)" } ?? "") + "/"
    }

    /// `/media/<path>` for an image on the API origin, nil for anything else.
    func panelPath(for imageURL: String) -> String? {
        // Byte-wise: String.hasPrefix compares by Unicode equivalence, far slower than needed here.
        let bytes = imageURL.utf8
        if bytes.starts(with: originPrefix.utf8) {
            let rest = bytes.dropFirst(originPrefix.utf8.count)
            let end = rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
            let path = rest[rest.startIndex..<end]
            if !path.isEmpty, !path.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "\\") }),
               let text = String(path) {
                return "/media/" + text
            }
        }
        guard let components = URLComponents(string: imageURL),
              (components.scheme ?? "").lowercased() == scheme,
              MediaLinks.normalizedHost(components.host ?? "") == host,
              (components.port ?? (scheme == "https" ? 443 : 80)) == port else { return nil }
        let path = components.percentEncodedPath
        guard path.hasPrefix("/"), path.count > 1 else { return nil }
        return "/media" + path
    }

    /// The upstream URL for the route's rest-of-path (already percent-decoded by the router).
    /// Refuses dot segments and empty paths; re-encodes each segment.
    func upstreamURL(forPath decodedPath: String) -> URL? {
        let segments = decodedPath.split(separator: "/", omittingEmptySubsequences: false)
        guard !decodedPath.isEmpty, !segments.contains(where: { $0 == ".." || $0 == "." }),
              !decodedPath.contains("\0") else { return nil }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;")
        let encoded = segments.map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
            .joined(separator: "/")
        let defaultPort = scheme == "https" ? 443 : 80
        let authority = port == defaultPort ? hostForURL : "\(hostForURL):\(port)"
        return URL(string: "\(scheme)://\(authority)/\(encoded)")
    }

    private var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    /// `localhost` and `127.0.0.1` name the same loopback API (the sandbox writes either).
    private static func normalizedHost(_ host: String) -> String {
        let lower = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return lower == "localhost" ? "127.0.0.1" : lower
    }
}
