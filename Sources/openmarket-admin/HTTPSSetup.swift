import AdminPanel
import Foundation
import TLS

#if canImport(Glibc)
import Glibc
#endif

/// The panel's HTTPS certificate, decided at start: none on loopback (unless `--tls on`), the
/// operator's `--tls-cert`/`--tls-key`, or the self-signed one kept in `DATA/tls/`. Any problem
/// ends the start with one line naming the file.
func httpsContext(for options: LaunchOptions) -> TLSContext? {
    guard options.servesHTTPS else { return nil }
    do {
        if let certificate = options.tlsCertificateFile, let key = options.tlsKeyFile {
            return try TLSContext.server(certificateFile: certificate, keyFile: key)
        }
        let folder = URL(fileURLWithPath: options.dataDirectory).appendingPathComponent("tls", isDirectory: true)
        let files = try SelfSignedCertificate.ensure(in: folder, names: MachineNames.certificateNames(boundTo: options.host))
        if files.created { say("Made a self-signed TLS certificate in \(folder.path)") }
        return try TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
    } catch {
        fail(error.description, status: 1)
    }
}

/// The names a browser may use to reach this machine: loopback, its host name (and
/// `NAME.local` for mDNS), and the addresses of its network interfaces.
enum MachineNames {
    static func certificateNames(boundTo host: String) -> [String] {
        var names = ["localhost", "127.0.0.1", "::1"]
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
            if !name.isEmpty {
                names.append(name)
                if !name.hasSuffix(".local") { names.append(name + ".local") }
            }
        }
        names += interfaceAddresses()
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare != "0.0.0.0" && bare != "::" { names.append(bare) }
        return names
    }

    /// IPv4 and IPv6 addresses of the interfaces (link-local IPv6 left out: browsers cannot
    /// address it without a zone).
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let value = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if value.lowercased().hasPrefix("fe80") || value.contains("%") { continue }
            addresses.append(value)
        }
        return addresses
    }
}
