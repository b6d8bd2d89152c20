import Foundation

/// The names the plain-HTTP 400 page may link to: a server's allow-list, and the name to show
/// when the request's `Host` is not on it.
public struct PlainHTTPHosts: Sendable {
    /// Whether `host` (`name:port`) is one of the server's own names for `port`.
    public var allows: @Sendable (_ host: String, _ port: Int) -> Bool
    public var fallback: String

    public init(fallback: String, allows: @escaping @Sendable (_ host: String, _ port: Int) -> Bool) {
        self.allows = allows
        self.fallback = fallback
    }
}

/// The answer to a plain-HTTP request that reached the HTTPS port: a 400 page naming the
/// `https://` address to use instead — one of the server's own names, never whatever `Host`
/// the request carried (a link to a name of someone else's choosing, on our page).
enum PlainHTTPRefusal {
    static func response(requestHead: [UInt8], localPort: Int, hosts: PlainHTTPHosts? = nil) -> [UInt8] {
        var name = hostName(in: requestHead) ?? hosts?.fallback ?? "localhost"
        if let hosts, !hosts.allows("\(name):\(localPort)", localPort) { name = hosts.fallback }
        let url = "https://\(name):\(localPort)/"
        let body = """
            <!doctype html>
            <html lang="en"><meta charset="utf-8"><title>Use HTTPS</title>
            <h1>This address speaks HTTPS</h1>
            <p>The request was sent as plain HTTP. Open <a href="\(url)">\(url)</a> instead.</p>
            </html>

            """
        let head = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// The name from the request's `Host` header, without its port, when it is a plain host
    /// name or address (letters, digits, `.`, `-`, or a bracketed IPv6 address): it is shown in
    /// the page, so nothing else is trusted.
    static func hostName(in head: [UInt8]) -> String? {
        let text = String(decoding: head.prefix(8192), as: UTF8.self)
        for line in text.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].lowercased() == "host" else { continue }
            var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("[") {
                guard let close = value.firstIndex(of: "]") else { return nil }
                value = String(value[...close])
                let inner = value.dropFirst().dropLast()
                return inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) && !inner.isEmpty ? value : nil
            }
            if let portColon = value.lastIndex(of: ":") { value = String(value[..<portColon]) }
            let allowed = !value.isEmpty && value.count <= 253
                && value.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "." || $0 == "-" }
            return allowed ? value : nil
        }
        return nil
    }
}
