/// Header fields serialized once, sent as they are: for fields every response carries (an
/// app's security headers), so they are neither looked up nor written field by field per request.
///
/// Set with `HTTPHeaders.set(_:)`; the fields stay readable (`headers["X-Frame-Options"]`), and
/// replacing one of them turns the rest of the block back into ordinary fields.
public struct HeaderBlock: Sendable {
    let fields: [HTTPHeaders.Field]
    /// `CRLF name: value` for each field.
    let bytes: [UInt8]

    /// The fields in order. Names must be tokens and values clean (they are constants of the
    /// app); fields the connection manages (Content-Length, Connection, Date…) are not allowed.
    public init(_ pairs: [(String, String)]) {
        var fields: [HTTPHeaders.Field] = []
        var bytes: [UInt8] = []
        for (name, value) in pairs {
            let known = KnownHeader(name)
            precondition(ASCII.isToken(name) && known?.isManagedByConnection != true, "not a field for a block: \(name)")
            precondition(HTTPHeaders.sanitized(value) == value, "a block's value must be clean: \(name)")
            fields.append(HTTPHeaders.Field(name: name, known: known, value: value))
            bytes += [ASCII.cr, ASCII.lf]
            bytes += name.utf8
            bytes += [ASCII.colon, ASCII.space]
            bytes += value.utf8
        }
        self.fields = fields
        self.bytes = bytes
    }
}
