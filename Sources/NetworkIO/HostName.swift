/// How a host is written inside a URL or a `Host` header.
public enum HostName {
    /// `::1` becomes `[::1]` (an IPv6 literal needs brackets before `:port`); names and IPv4
    /// addresses stay as they are.
    public static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
