import Foundation
import HTTPServer
import OpenMarketCore
import TLS

/// Everything the panel needs to run, decided by the executable (flags, environment, sandbox).
public struct PanelConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Where the API is and the vendor the panel acts for (identifier/secret stay server-side).
    public var api: ClientConfiguration
    /// The vendor whose products this panel may edit; nil = learn it from the first register.
    public var vendorID: Int?
    public var publicDirectory: URL
    public var templatesDirectory: URL
    /// Sign-in with people and passwords (docs/lan-console.md, "People and roles"); the
    /// executable turns it on beyond loopback or with `--sign-in`. Off: everyone is `local`, owner.
    public var signIn: Bool
    /// `http` or `https`, following `tls`: how the setup and invitation links are written.
    public var scheme: String { tls == nil ? "http" : "https" }
    /// Argon2id at libsodium's minimum strength, for test suites that hash hundreds of passwords.
    public var fastPasswordHashesForTests = false
    /// Wrong sign-in passwords per 15 minutes: per name and per client address.
    public var signInNameLimit = 5
    public var signInAddressLimit = 20
    public var signInWindow: TimeInterval = 900
    /// DATA: the panel keeps `panel.sqlite` here, and spools large uploads and stages images in a
    /// folder of its own under `uploads/`, removing at start what a killed panel left (see
    /// `ScratchFolder`). nil = a fresh private folder (tests).
    public var dataDirectory: URL?
    /// `--allowed-host` values: names (with an optional port) besides the panel's own.
    public var allowedHosts = LaunchOptionTable.allowedHosts.defaultValue
    /// `--activity-days`: activity rows older than this are removed.
    public var activityDays = LaunchOptionTable.activityDays.defaultValue
    /// `--max-connections` (see `ServerLimits.maxConnections`).
    public var maxConnections = LaunchOptionTable.maxConnections.defaultValue
    /// `--time-zone`: the zone every time is shown in (with the zone named) and typed in.
    public var timeZone = LaunchOptionTable.timeZone.defaultValue
    /// `--public-url`: the address colleagues open; nil = worked out from the listening address.
    public var publicURL = LaunchOptionTable.publicURL.defaultValue
    /// `--trash-days`: deleted products stay restorable this long.
    public var trashDays = LaunchOptionTable.trashDays.defaultValue
    public var stagingLifetime: TimeInterval = 3600
    /// Origins besides the API's whose images `/media` may fetch (the real API keeps its images
    /// in a storage bucket on another host). Empty = the API's origin only.
    public var mediaOrigins = LaunchOptionTable.mediaOrigins.defaultValue
    /// `--api-ca`: a PEM certificate trusted for https:// upstreams besides the system's CAs.
    public var apiCertificateFile = LaunchOptionTable.apiCertificate.defaultValue
    public var mediaCacheBytes = 32 << 20
    /// Largest register request (all images and fields); beyond it a 413 page.
    public var uploadLimit = 16 << 20
    /// Wrong vendor passwords per person, and for the whole panel, per `deleteAttemptWindow`.
    public var deleteAttemptLimit = 5
    public var deleteAttemptPanelLimit = 20
    public var deleteAttemptWindow: TimeInterval = 600
    public var itemsPerPage = 20
    /// How often the local catalog copy is synced in the background while the panel is used.
    public var catalogSyncInterval: TimeInterval = 30
    /// A page from the copy syncs first when the copy is older than this (the 60 s promise).
    public var catalogMaxAge: TimeInterval = 50
    /// Products a bulk action works on at once (one or two API calls each).
    public var bulkConcurrency = 4
    public var version = "1.0.0"
    /// The clock for expiry and limits; tests move it forward instead of sleeping.
    public var now: @Sendable () -> Date = { Date() }
    /// Where the access log goes; nil = quiet. Lines carry the route template, never the real
    /// path. The default: each event loop's ring, read and formatted by the access-log thread
    /// of standard error (which drops and counts lines when standard error stalls).
    public var accessLogDestination: AccessLogDestination? = .writer(.standardError)
    /// One line per request; nil = quiet. A closure set here is called on an event loop: it
    /// must not block.
    public var accessLog: (@Sendable (String) -> Void)? {
        get {
            switch accessLogDestination {
            case .writer(let writer): { writer.write($0) }
            case .observer: accessLogLines
            case nil: nil
            }
        }
        set {
            accessLogLines = newValue
            accessLogDestination = newValue.map { write in .observer { write($0.line) } }
        }
    }
    private var accessLogLines: (@Sendable (String) -> Void)?
    /// Non-nil serves HTTPS with this certificate: cookies are `Secure` and responses carry HSTS.
    public var tls: TLSContext?
    /// Event-loop threads of the panel's server.
    public var eventLoopCount = ProcessInfo.processInfo.activeProcessorCount

    public init(host: String = LaunchOptions.defaults.host, port: Int = LaunchOptions.defaults.port,
                api: ClientConfiguration, vendorID: Int? = nil, publicDirectory: URL, templatesDirectory: URL,
                signIn: Bool = LaunchOptions.defaults.signIn) {
        self.host = host
        self.port = port
        self.api = api
        self.vendorID = vendorID
        self.publicDirectory = publicDirectory
        self.templatesDirectory = templatesDirectory
        self.signIn = signIn
    }
}
