import Foundation
import OpenMarketCore

/// The `openmarket-admin` command line: flags first, then `OPENMARKET_*` environment variables,
/// then defaults. Parsing is pure so it can be tested; the executable acts on the result.
public struct LaunchOptions: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var api: URL?
    public var dialect = Dialect.v2a
    public var identifier: String?
    public var secret: String?
    public var vendorID: Int?
    public var dataDirectory = "./.openmarket"
    public var sandboxPort = 8081
    public var publicDirectory: String?
    public var templatesDirectory: String?
    /// Seconds for one upstream exchange.
    public var timeout: TimeInterval = 10
    /// `--sign-in` / `OPENMARKET_SIGN_IN=1`: sign-in on loopback too (always on beyond loopback).
    public var signIn = false
    /// Sample products for an empty embedded sandbox (demos and benchmarks).
    public var seed = 0
    /// Extra origins `/media` may fetch images from (comma-separated on the command line).
    public var mediaOrigins: [URL] = []
    /// `--api-ca`: one more PEM certificate an https:// API or media origin may present (or
    /// chain to), besides the system's CA store, e.g. a self-signed test API's.
    public var apiCertificateFile: String?
    /// HTTPS: `auto` (beyond loopback only), `on` or `off`.
    public var tls = TLSMode.auto
    /// A real certificate (PEM) and its key; without them a self-signed one is made in DATA/tls/.
    public var tlsCertificateFile: String?
    public var tlsKeyFile: String?
    /// `--allowed-host` (repeatable) / `OPENMARKET_ALLOWED_HOSTS` (comma-separated).
    public var allowedHosts: [String] = []
    /// `--activity-days`: how long activity rows are kept.
    public var activityDays = 365
    /// `--max-connections`: open connections at most; when full, the longest-idle are closed.
    public var maxConnections = 10_000
    /// `--time-zone`: the zone times are shown and typed in (default: the system's).
    public var timeZone = TimeZone.current
    /// `--public-url`: the address colleagues open (invitation and setup links); nil = worked out.
    public var publicURL: URL?
    /// `--trash-days`: how long deleted products stay restorable.
    public var trashDays = 30
    public var showHelp = false

    public enum TLSMode: String, Sendable, Equatable { case auto, on, off }

    /// Whether the panel serves HTTPS: `auto` means beyond loopback only.
    public var servesHTTPS: Bool {
        switch tls {
        case .on: true
        case .off: false
        case .auto: !Self.isLoopback(host)
        }
    }

    public init() {}

    /// Flag name → environment variable.
    static let flags: [(flag: String, env: String)] = [
        ("host", "OPENMARKET_HOST"), ("port", "OPENMARKET_PORT"), ("api", "OPENMARKET_API"),
        ("dialect", "OPENMARKET_DIALECT"), ("identifier", "OPENMARKET_IDENTIFIER"),
        ("secret", "OPENMARKET_SECRET"), ("vendor-id", "OPENMARKET_VENDOR_ID"), ("data", "OPENMARKET_DATA"),
        ("sandbox-port", "OPENMARKET_SANDBOX_PORT"), ("public", "OPENMARKET_PUBLIC"),
        ("templates", "OPENMARKET_TEMPLATES"), ("timeout", "OPENMARKET_TIMEOUT"),
        ("sign-in", "OPENMARKET_SIGN_IN"), ("seed", "OPENMARKET_SEED"),
        ("media-origin", "OPENMARKET_MEDIA_ORIGIN"), ("allowed-host", "OPENMARKET_ALLOWED_HOSTS"),
        ("activity-days", "OPENMARKET_ACTIVITY_DAYS"), ("max-connections", "OPENMARKET_MAX_CONNECTIONS"),
        ("tls", "OPENMARKET_TLS"), ("tls-cert", "OPENMARKET_TLS_CERT"), ("tls-key", "OPENMARKET_TLS_KEY"),
        ("time-zone", "OPENMARKET_TIME_ZONE"), ("public-url", "OPENMARKET_PUBLIC_URL"),
        ("trash-days", "OPENMARKET_TRASH_DAYS"), ("api-ca", "OPENMARKET_API_CA"),
    ]

    /// Flags that may be given more than once; their values add up (comma-joined).
    static let repeatable: Set<String> = ["allowed-host"]
    /// Flags without a value (`--sign-in`); their variable is on when `1`, `true` or `yes`.
    static let switches: Set<String> = ["sign-in"]

    public static let usage = """
        Usage: openmarket-admin [options]
               openmarket-admin backup DIR [--data DATA]   (a consistent copy of DATA, also while the panel runs)

        A web admin panel for Open Market sellers. Without --api it starts an embedded sandbox API.

          --host H            address the panel listens on (default 127.0.0.1; anything but
                              loopback turns on the sign-in page)
          --port P            panel port (default 8080)
          --api URL           the Open Market API to use (default: start the embedded sandbox)
          --dialect v1|v2a|v2b  API dialect (default v2a; v1 = the 2021 API, a password per product,
                              no vendor: --identifier/--secret are not needed)
          --identifier ID     vendor identifier (required with --api)
          --secret S          vendor secret (required with --api; stays on the server)
          --vendor-id N       the vendor's numeric id (shows edit/delete only on its products)
          --data DIR          sandbox data folder (default ./.openmarket)
          --sandbox-port P    embedded sandbox port (default 8081)
          --public DIR        static files (default: the checkout's Public/)
          --templates DIR     HTML templates (default: the checkout's Templates/)
          --timeout SECONDS   upstream timeout (default 10)
          --sign-in           people sign in with their own name and password, also on loopback
                              (always on beyond loopback; the first start prints a setup link)
          --seed N            sample products for an empty embedded sandbox (default 0)
          --media-origin URLS images may also come from these origins, comma-separated
                              (e.g. the real API's https://s3.ap-northeast-2.amazonaws.com)
          --api-ca FILE       trust this PEM certificate too for an https:// API or media
                              origin (e.g. a self-signed test API), besides the system's CAs
          --allowed-host NAME[:PORT]  another name the panel answers to (repeatable); it always
                              answers to 127.0.0.1, localhost and [::1], and beyond loopback to
                              this machine's addresses, host name and HOSTNAME.local
          --activity-days N   keep the activity log this many days (default 365)
          --max-connections N open connections at most (default 10000); when full, the
                              longest-idle ones are closed to admit new ones
          --time-zone ZONE    the zone times are shown and typed in, e.g. Asia/Seoul
                              (default: the system's)
          --public-url URL    the address colleagues open, for invitation and setup links
                              (default: this machine's LAN address when listening on all)
          --trash-days N      keep deleted products restorable this many days (default 30)
          --tls auto|on|off   HTTPS (default auto: on when listening beyond loopback)
          --tls-cert FILE     the HTTPS certificate (PEM, its chain may follow)
          --tls-key FILE      its private key (PEM, readable by you alone: chmod 600);
                              without both, a self-signed certificate is made once in
                              DATA/tls/ and its SHA-256 fingerprint printed at every start
          --help              show this help

        Every option can also come from the environment: OPENMARKET_HOST, OPENMARKET_PORT,
        OPENMARKET_API, OPENMARKET_DIALECT, OPENMARKET_IDENTIFIER, OPENMARKET_SECRET,
        OPENMARKET_VENDOR_ID, OPENMARKET_DATA, OPENMARKET_SANDBOX_PORT, OPENMARKET_PUBLIC,
        OPENMARKET_TEMPLATES, OPENMARKET_TIMEOUT, OPENMARKET_SIGN_IN (1), OPENMARKET_SEED,
        OPENMARKET_MEDIA_ORIGIN, OPENMARKET_ALLOWED_HOSTS (comma-separated), OPENMARKET_ACTIVITY_DAYS, OPENMARKET_MAX_CONNECTIONS,
        OPENMARKET_TLS, OPENMARKET_TLS_CERT, OPENMARKET_TLS_KEY, OPENMARKET_TIME_ZONE,
        OPENMARKET_PUBLIC_URL, OPENMARKET_TRASH_DAYS, OPENMARKET_API_CA.
        """

    /// A bad command line, explained in one line (the executable exits with status 2).
    public struct Problem: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static func parse(_ arguments: [String], environment: [String: String]) throws(Problem) -> LaunchOptions {
        var given: [String: String] = [:]
        var index = 0
        var options = LaunchOptions()
        if arguments.contains("--help") || arguments.contains("-h") {
            options.showHelp = true
            return options
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { throw Problem(description: "unexpected argument '\(argument)' (see --help)") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "access-code" { throw Problem(description: retiredAccessCode) }
            if switches.contains(name) {
                guard value == nil || ["1", "true", "yes"].contains(value!.lowercased()) else {
                    throw Problem(description: "--\(name) takes no value")
                }
                given[name] = "1"
                continue
            }
            guard flags.contains(where: { $0.flag == name }) else {
                throw Problem(description: "unknown option --\(name) (see --help)")
            }
            if value == nil {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw Problem(description: "--\(name) needs a value")
                }
                value = arguments[index]
                index += 1
            }
            if Self.repeatable.contains(name), let earlier = given[name], let value {
                given[name] = earlier + "," + value
            } else {
                given[name] = value
            }
        }
        if let code = environment["OPENMARKET_ACCESS_CODE"], !code.isEmpty { throw Problem(description: retiredAccessCode) }
        for (flag, env) in flags where given[flag] == nil {
            if let value = environment[env], !value.isEmpty { given[flag] = value }
        }
        try options.apply(given)
        return options
    }

    private mutating func apply(_ given: [String: String]) throws(Problem) {
        func port(_ name: String) throws(Problem) -> Int? {
            guard let text = given[name] else { return nil }
            guard let value = Int(text), (0...65535).contains(value) else {
                throw Problem(description: "--\(name) must be a port number from 0 to 65535, not '\(text)'")
            }
            return value
        }
        if let host = given["host"] {
            guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw Problem(description: "--host must be an address like 127.0.0.1 or 0.0.0.0")
            }
            self.host = host
        }
        if let value = try port("port") { self.port = value }
        if let value = try port("sandbox-port") { sandboxPort = value }
        if let text = given["api"] {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false else {
                throw Problem(description: "--api must be an http:// or https:// URL, not '\(text)'")
            }
            api = url
        }
        if let text = given["dialect"] {
            guard let value = Dialect(rawValue: text.lowercased()) else {
                throw Problem(description: "--dialect must be v1, v2a or v2b, not '\(text)'")
            }
            dialect = value
        }
        identifier = given["identifier"]
        secret = given["secret"]
        if let text = given["vendor-id"] {
            guard let value = Int(text), value > 0 else { throw Problem(description: "--vendor-id must be a positive number") }
            vendorID = value
        }
        if let text = given["data"] { dataDirectory = text }
        publicDirectory = given["public"]
        templatesDirectory = given["templates"]
        if let text = given["timeout"] {
            guard let value = Double(text), value > 0, value <= 600 else {
                throw Problem(description: "--timeout must be a number of seconds from 0 to 600")
            }
            timeout = value
        }
        if let text = given["sign-in"] {
            switch text.lowercased() {
            case "1", "true", "yes": signIn = true
            case "0", "false", "no": signIn = false
            default: throw Problem(description: "OPENMARKET_SIGN_IN must be 1 or 0, not '\(text)'")
            }
        }
        if let text = given["seed"] {
            guard let value = Int(text), (0...10_000).contains(value) else {
                throw Problem(description: "--seed must be a number from 0 to 10000")
            }
            seed = value
        }
        if let text = given["media-origin"] {
            for item in text.split(separator: ",") {
                let trimmed = item.trimmingCharacters(in: .whitespaces)
                guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                      url.host?.isEmpty == false, url.path.isEmpty || url.path == "/", url.query == nil else {
                    throw Problem(description: "--media-origin takes origins like https://images.example.com, not '\(trimmed)'")
                }
                mediaOrigins.append(url)
            }
        }
        if let text = given["allowed-host"] {
            allowedHosts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            do {
                _ = try HostAllowList(bindHost: "127.0.0.1", allowedHosts: allowedHosts, interfaces: [], hostName: "")
            } catch {
                throw Problem(description: error.description)
            }
        }
        if let text = given["activity-days"] {
            guard let value = Int(text), (1...36_500).contains(value) else {
                throw Problem(description: "--activity-days must be a number of days from 1 to 36500")
            }
            activityDays = value
        }
        if let text = given["time-zone"] {
            guard let zone = TimeZone(identifier: text) else {
                throw Problem(description: "--time-zone must be a zone name like Asia/Seoul, not '\(text)'")
            }
            timeZone = zone
        }
        if let text = given["public-url"] {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
                throw Problem(description: "--public-url must be an http:// or https:// address like https://192.168.0.10:8080, not '\(text)'")
            }
            publicURL = url
        }
        if let text = given["trash-days"] {
            guard let value = Int(text), (1...3_650).contains(value) else {
                throw Problem(description: "--trash-days must be a number of days from 1 to 3650")
            }
            trashDays = value
        }
        if let text = given["max-connections"] {
            guard let value = Int(text), (1...1_000_000).contains(value) else {
                throw Problem(description: "--max-connections must be a number from 1 to 1000000")
            }
            maxConnections = value
        }
        if let text = given["tls"] {
            guard let mode = TLSMode(rawValue: text.lowercased()) else {
                throw Problem(description: "--tls must be auto, on or off, not '\(text)'")
            }
            tls = mode
        }
        if let file = given["api-ca"] {
            guard !file.isEmpty, FileManager.default.isReadableFile(atPath: file) else {
                throw Problem(description: "--api-ca: cannot read the certificate file '\(file)'")
            }
            apiCertificateFile = file
        }
        tlsCertificateFile = given["tls-cert"]
        tlsKeyFile = given["tls-key"]
        if (tlsCertificateFile == nil) != (tlsKeyFile == nil) {
            throw Problem(description: "--tls-cert and --tls-key go together")
        }
        if api != nil, dialect != .v1, identifier == nil || secret == nil {
            throw Problem(description: "--api needs --identifier and --secret (or OPENMARKET_IDENTIFIER and OPENMARKET_SECRET)")
        }
        if (identifier == nil) != (secret == nil) {
            throw Problem(description: "--identifier and --secret go together")
        }
    }

    /// Loopback addresses keep the panel private to this machine; anything else needs sign-in.
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return lowered == "localhost" || lowered == "::1" || lowered.hasPrefix("127.")
    }
}

/// Finds the checkout's `Public/` and `Templates/` when no flag names them: walks up from the
/// executable's folder and from the working directory, looking for a folder holding
/// `Package.swift` and `Templates/`.
public enum CheckoutLocator {
    public static func checkoutRoot(executablePath: String, workingDirectory: String) -> URL? {
        for start in [executablePath, workingDirectory] where !start.isEmpty {
            var folder = URL(fileURLWithPath: start).standardizedFileURL.resolvingSymlinksInPath()
            for _ in 0..<12 {
                if isCheckout(folder) { return folder }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }

    static func isCheckout(_ folder: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
            && FileManager.default.fileExists(atPath: folder.appendingPathComponent("Templates").path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }
}

extension LaunchOptions {
    static let retiredAccessCode = "--access-code (OPENMARKET_ACCESS_CODE) is retired: people now sign in with their own "
        + "name and password. Start with --sign-in (or beyond loopback) and open the printed setup link."
}
