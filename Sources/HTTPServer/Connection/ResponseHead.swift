/// Serializes a response head. Header names are tokens and values are free of CR, LF and NUL
/// (HTTPHeaders guarantees it; checked again here because this is the last line of defence).
enum ResponseHead {
    /// Headers the connection owns; a handler's values for them are ignored.
    private static let managed: Set<String> = ["content-length", "transfer-encoding", "connection", "date"]

    enum Length {
        case known(Int)
        case chunked
        /// HTTP/1.0 streaming: the body ends when the connection closes.
        case untilClose
    }

    static func serialize(status rawStatus: Int, headers: HTTPHeaders, length: Length, keepAlive: Bool,
                          version: String, date: String) -> [UInt8] {
        let status = (100...999).contains(rawStatus) ? rawStatus : 500
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\nDate: \(date)\r\n"
        for (name, value) in headers {
            guard !managed.contains(name.lowercased()), ASCII.isToken(name),
                  !value.utf8.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 }) else { continue }
            head += name + ": " + value + "\r\n"
        }
        if !HTTPStatus.forbidsBody(status) {
            switch length {
            case .known(let n): head += "Content-Length: \(n)\r\n"
            case .chunked: head += "Transfer-Encoding: chunked\r\n"
            case .untilClose: break
            }
        }
        if !keepAlive {
            head += "Connection: close\r\n"
        } else if version == "HTTP/1.0" {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
