import COpenSSL

/// A TLS failure, explained in one line (start-up errors name the file at fault).
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// `what`, followed by OpenSSL's reason for the most recent failure on this thread (its error
    /// queue is emptied, so the next call starts clean).
    static func openSSL(_ what: String) -> TLSError {
        let reason = OpenSSLErrors.drain()
        return TLSError(reason.isEmpty ? what : "\(what): \(reason)")
    }
}

enum OpenSSLErrors {
    /// The oldest queued error's reason text (e.g. "wrong version number"); clears the queue.
    static func drain() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "" }
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
