/// How a host is written inside a URL or a `Host` header.
public enum HostName {
    /// `::1` becomes `[::1]` (an IPv6 literal needs brackets before `:port`); names and IPv4
    /// addresses stay as they are.
    public static func bracketed(_ host: String) -> String {
        // Byte-wise: Foundation's `contains(String)` costs thousands of instructions, and every
        // upstream request's head names its host.
        host.utf8.contains(UInt8(ascii: ":")) && !host.utf8.starts(with: "[".utf8) ? "[\(host)]" : host
    }
}
