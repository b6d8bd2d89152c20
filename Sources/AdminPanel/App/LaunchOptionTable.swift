import Foundation
import OpenMarketCore

/// Every option of `openmarket-admin`, each declared once, in the order `--help` and the README
/// list them. A new option is one row here, one field in `LaunchOptions`, and one entry in `rows`
/// (`LaunchOptionTableTests` fails when a field has no row); the README's table is regenerated
/// with `scripts/option-table --write`.
enum LaunchOptionTable {
    static let host: LaunchOption<String> = .init(
        "host", "OPENMARKET_HOST", .address, default: "127.0.0.1",
        help: "address the panel listens on; anything but loopback turns on sign-in and HTTPS") { $0.host = $1 }
    static let port: LaunchOption<Int> = .init(
        "port", "OPENMARKET_PORT", .port, default: 8080, help: "panel port") { $0.port = $1 }
    static let api: LaunchOption<URL?> = .init(
        "api", "OPENMARKET_API", LaunchOptionKind.httpURL.optional, default: nil, inWords: "none: the embedded sandbox",
        help: "the Open Market API to use") { $0.api = $1 }
    static let dialect: LaunchOption<Dialect> = .init(
        "dialect", "OPENMARKET_DIALECT", .choice, default: Dialect.v2a,
        help: "API generation (docs/api.md); v1 is the 2021 API: a password per product, no vendor, "
            + "so --identifier and --secret are not needed") { $0.dialect = $1 }
    static let identifier: LaunchOption<String?> = .init(
        "identifier", "OPENMARKET_IDENTIFIER", LaunchOptionKind.text("ID").optional, default: nil,
        inWords: "the demo vendor's", help: "vendor identifier (required with --api)") { $0.identifier = $1 }
    static let secret: LaunchOption<String?> = .init(
        "secret", "OPENMARKET_SECRET", LaunchOptionKind.text("S").optional, default: nil, inWords: "the demo vendor's",
        help: "vendor secret (required with --api; never sent to a browser or logged)") { $0.secret = $1 }
    static let vendorID: LaunchOption<Int?> = .init(
        "vendor-id", "OPENMARKET_VENDOR_ID", LaunchOptionKind.positiveNumber.optional, default: nil,
        inWords: "the sandbox's vendor", help: "the vendor's numeric id: edit and delete show only on its products") {
            $0.vendorID = $1
        }
    static let data: LaunchOption<String> = .init(
        "data", "OPENMARKET_DATA", .text("DIR"), default: "./.openmarket",
        help: "data folder: the panel's own database, and the embedded sandbox's data (SQLite and images)") {
            $0.dataDirectory = $1
        }
    static let sandboxPort: LaunchOption<Int> = .init(
        "sandbox-port", "OPENMARKET_SANDBOX_PORT", .port, default: 8081, help: "embedded sandbox port") {
            $0.sandboxPort = $1
        }
    static let publicFolder: LaunchOption<String?> = .init(
        "public", "OPENMARKET_PUBLIC", LaunchOptionKind.text("DIR").optional, default: nil,
        inWords: "the checkout's Public/", help: "static files (stylesheets, scripts, icons)") { $0.publicDirectory = $1 }
    static let templates: LaunchOption<String?> = .init(
        "templates", "OPENMARKET_TEMPLATES", LaunchOptionKind.text("DIR").optional, default: nil,
        inWords: "the checkout's Templates/", help: "HTML templates") { $0.templatesDirectory = $1 }
    static let timeout: LaunchOption<TimeInterval> = .init(
        "timeout", "OPENMARKET_TIMEOUT", .seconds(upTo: 600), default: 10,
        help: "seconds for one upstream exchange") { $0.timeout = $1 }
    static let seed: LaunchOption<Int> = .init(
        "seed", "OPENMARKET_SEED", .number(0...10_000), default: 0,
        help: "sample products for an empty embedded sandbox") { $0.seed = $1 }
    static let mediaOrigins: LaunchOption<[URL]> = .init(
        "media-origin", "OPENMARKET_MEDIA_ORIGIN", .origins, default: [], inWords: "none",
        help: "other origins product images may come from, comma-separated "
            + "(e.g. the real API's image bucket, https://s3.ap-northeast-2.amazonaws.com)") { $0.mediaOrigins = $1 }
    static let apiCertificate: LaunchOption<String?> = .init(
        "api-ca", "OPENMARKET_API_CA", LaunchOptionKind.readableFile("certificate file").optional, default: nil,
        inWords: "the system's CAs only",
        help: "one more PEM certificate an https:// API or media origin may present or chain to "
            + "(e.g. a self-signed test API)") { $0.apiCertificateFile = $1 }
    static let allowedHosts: LaunchOption<[String]> = .init(
        "allowed-host", "OPENMARKET_ALLOWED_HOSTS", .hostNames, default: [], inWords: "none",
        help: "another name the panel answers to (repeatable); it always answers to 127.0.0.1, localhost and [::1], "
            + "and beyond loopback to this machine's addresses, host name and HOSTNAME.local; "
            + "any other Host gets 421") { $0.allowedHosts = $1 }
    static let activityDays: LaunchOption<Int> = .init(
        "activity-days", "OPENMARKET_ACTIVITY_DAYS", .number(1...36_500, unit: "days"), default: 365,
        help: "days the activity log keeps its rows") { $0.activityDays = $1 }
    static let signIn: LaunchOption<Bool> = .init(
        "sign-in", "OPENMARKET_SIGN_IN", .onOff, default: false, inWords: "off on loopback",
        help: "people sign in with their own name and password, also on loopback (always on beyond loopback; "
            + "the first start prints a setup link)") { $0.signIn = $1 }
    static let tls: LaunchOption<LaunchOptions.TLSMode> = .init(
        "tls", "OPENMARKET_TLS", .choice, default: LaunchOptions.TLSMode.auto,
        help: "HTTPS; auto = HTTPS beyond loopback, plain HTTP on loopback") { $0.tls = $1 }
    static let tlsCertificate: LaunchOption<String?> = .init(
        "tls-cert", "OPENMARKET_TLS_CERT", LaunchOptionKind.text("FILE").optional, default: nil,
        inWords: "self-signed in DATA/tls/",
        help: "the HTTPS certificate (PEM, its chain may follow); without --tls-cert and --tls-key, a self-signed "
            + "certificate is made once in DATA/tls/ and its SHA-256 fingerprint printed at every start") {
            $0.tlsCertificateFile = $1
        }
    static let tlsKey: LaunchOption<String?> = .init(
        "tls-key", "OPENMARKET_TLS_KEY", LaunchOptionKind.text("FILE").optional, default: nil,
        inWords: "self-signed in DATA/tls/", help: "the certificate's private key (PEM, readable by you alone: chmod 600)") {
            $0.tlsKeyFile = $1
        }
    static let timeZone: LaunchOption<TimeZone> = .init(
        "time-zone", "OPENMARKET_TIME_ZONE", .timeZone, default: TimeZone.current, inWords: "the system's",
        help: "the zone times are shown and typed in, e.g. Asia/Seoul") { $0.timeZone = $1 }
    static let publicURL: LaunchOption<URL?> = .init(
        "public-url", "OPENMARKET_PUBLIC_URL", LaunchOptionKind.publicAddress.optional, default: nil,
        inWords: "the LAN address when listening on all",
        help: "the address colleagues open, for invitation and setup links") { $0.publicURL = $1 }
    static let trashDays: LaunchOption<Int> = .init(
        "trash-days", "OPENMARKET_TRASH_DAYS", .number(1...3_650, unit: "days"), default: 30,
        help: "days a deleted product stays restorable in the trash") { $0.trashDays = $1 }
    static let maxConnections: LaunchOption<Int> = .init(
        "max-connections", "OPENMARKET_MAX_CONNECTIONS", .number(1...1_000_000), default: 10_000,
        help: "open connections at most; when full, the longest-idle keep-alive ones are closed to admit new ones") {
            $0.maxConnections = $1
        }

    static let rows: [any LaunchOptionRow] = [
        host, port, api, dialect, identifier, secret, vendorID, data, sandboxPort, publicFolder, templates, timeout,
        seed, mediaOrigins, apiCertificate, allowedHosts, activityDays, signIn, tls, tlsCertificate, tlsKey, timeZone,
        publicURL, trashDays, maxConnections,
    ]

    static func row(flag: String) -> (any LaunchOptionRow)? { rows.first { $0.flag == flag } }
}
