/// Serializes a response head. Header names are tokens and values are free of CR, LF and NUL
/// (HTTPHeaders guarantees it; checked again here because this is the last line of defence).
enum ResponseHead {
    enum Length {
        case known(Int)
        case chunked
        /// HTTP/1.0 streaming: the body ends when the connection closes.
        case untilClose
    }

    /// Written straight into bytes: this runs once per response, so no intermediate Strings.
    static func serialize(status rawStatus: Int, headers: HTTPHeaders, length: Length, keepAlive: Bool,
                          version: String, date: String) -> [UInt8] {
        let status = (100...999).contains(rawStatus) ? rawStatus : 500
        var head: [UInt8] = []
        head.reserveCapacity(256 + headers.count * 64)
        head += "HTTP/1.1 ".utf8
        head += String(status).utf8
        head.append(ASCII.space)
        head += HTTPStatus.reason(status).utf8
        appendField("Date", date, to: &head)
        // Fields the connection owns (Content-Length, Connection, Date…) are skipped: a handler's
        // values for them are ignored.
        headers.write(into: &head)
        if !HTTPStatus.forbidsBody(status) {
            switch length {
            case .known(let n): appendField("Content-Length", String(n), to: &head)
            case .chunked: appendField("Transfer-Encoding", "chunked", to: &head)
            case .untilClose: break
            }
        }
        if !keepAlive {
            appendField("Connection", "close", to: &head)
        } else if version == "HTTP/1.0" {
            appendField("Connection", "keep-alive", to: &head)
        }
        head += [ASCII.cr, ASCII.lf, ASCII.cr, ASCII.lf]
        return head
    }

    /// CRLF (ending the previous line), then `name: value`.
    private static func appendField(_ name: String, _ value: String, to head: inout [UInt8]) {
        head += [ASCII.cr, ASCII.lf]
        head += name.utf8
        head += [ASCII.colon, ASCII.space]
        head += value.utf8
    }

    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
