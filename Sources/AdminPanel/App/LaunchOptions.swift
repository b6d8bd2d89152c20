import Foundation
import OpenMarketCore

/// The `openmarket-admin` command line: flags first, then `OPENMARKET_*` environment variables,
/// then defaults. Each option's flag, variable, default, help and kind of value is declared once,
/// in `LaunchOptionTable`. Parsing is pure so it can be tested; the executable acts on the result.
public struct LaunchOptions: Sendable, Equatable {
    public var host = LaunchOptionTable.host.defaultValue
    public var port = LaunchOptionTable.port.defaultValue
    public var api = LaunchOptionTable.api.defaultValue
    public var dialect = LaunchOptionTable.dialect.defaultValue
    public var identifier = LaunchOptionTable.identifier.defaultValue
    public var secret = LaunchOptionTable.secret.defaultValue
    public var vendorID = LaunchOptionTable.vendorID.defaultValue
    public var dataDirectory = LaunchOptionTable.data.defaultValue
    public var sandboxPort = LaunchOptionTable.sandboxPort.defaultValue
    public var publicDirectory = LaunchOptionTable.publicFolder.defaultValue
    public var templatesDirectory = LaunchOptionTable.templates.defaultValue
    /// Seconds for one upstream exchange.
    public var timeout = LaunchOptionTable.timeout.defaultValue
    /// Sign-in on loopback too (always on beyond loopback).
    public var signIn = LaunchOptionTable.signIn.defaultValue
    /// Sample products for an empty embedded sandbox (demos and benchmarks).
    public var seed = LaunchOptionTable.seed.defaultValue
    /// Extra origins `/media` may fetch images from.
    public var mediaOrigins = LaunchOptionTable.mediaOrigins.defaultValue
    /// One more PEM certificate an https:// API or media origin may present (or chain to),
    /// besides the system's CA store, e.g. a self-signed test API's.
    public var apiCertificateFile = LaunchOptionTable.apiCertificate.defaultValue
    /// HTTPS: `auto` (beyond loopback only), `on` or `off`.
    public var tls = LaunchOptionTable.tls.defaultValue
    /// A real certificate (PEM) and its key; without them a self-signed one is made in DATA/tls/.
    public var tlsCertificateFile = LaunchOptionTable.tlsCertificate.defaultValue
    public var tlsKeyFile = LaunchOptionTable.tlsKey.defaultValue
    public var allowedHosts = LaunchOptionTable.allowedHosts.defaultValue
    /// How long activity rows are kept.
    public var activityDays = LaunchOptionTable.activityDays.defaultValue
    /// Open connections at most; when full, the longest-idle are closed.
    public var maxConnections = LaunchOptionTable.maxConnections.defaultValue
    /// The zone times are shown and typed in.
    public var timeZone = LaunchOptionTable.timeZone.defaultValue
    /// The address colleagues open (invitation and setup links); nil = worked out.
    public var publicURL = LaunchOptionTable.publicURL.defaultValue
    /// How long deleted products stay restorable.
    public var trashDays = LaunchOptionTable.trashDays.defaultValue
    /// `--help` or `--help-markdown` was asked for: nothing else is read.
    public var help: HelpFormat?

    public enum TLSMode: String, Sendable, Equatable, CaseIterable { case auto, on, off }
    public enum HelpFormat: Sendable, Equatable { case text, markdown }

    public var showHelp: Bool { help != nil }

    /// Whether the panel serves HTTPS: `auto` means beyond loopback only.
    public var servesHTTPS: Bool {
        switch tls {
        case .on: true
        case .off: false
        case .auto: !Self.isLoopback(host)
        }
    }

    public init() {}

    /// Every option at its default (what `PanelConfiguration` starts from too).
    public static var defaults: LaunchOptions { LaunchOptions() }

    /// A bad command line, explained in one line (the executable exits with status 2).
    public struct Problem: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static func parse(_ arguments: [String], environment: [String: String]) throws(Problem) -> LaunchOptions {
        var options = LaunchOptions()
        if arguments.contains("--help-markdown") {
            options.help = .markdown
            return options
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            options.help = .text
            return options
        }
        var given: [String: String] = [:]
        var index = 0
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
            guard let row = LaunchOptionTable.row(flag: name) else {
                throw Problem(description: "unknown option --\(name) (see --help)")
            }
            guard row.takesValue else {
                guard value == nil || ["1", "true", "yes"].contains(value!.lowercased()) else {
                    throw Problem(description: "--\(name) takes no value")
                }
                given[name] = "1"
                continue
            }
            if value == nil {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw Problem(description: "--\(name) needs a value")
                }
                value = arguments[index]
                index += 1
            }
            if row.isRepeatable, let earlier = given[name], let value {
                given[name] = earlier + "," + value
            } else {
                given[name] = value
            }
        }
        if let code = environment["OPENMARKET_ACCESS_CODE"], !code.isEmpty { throw Problem(description: retiredAccessCode) }
        for row in LaunchOptionTable.rows where given[row.flag] == nil {
            if let value = environment[row.variable], !value.isEmpty { given[row.flag] = value }
        }
        for row in LaunchOptionTable.rows {
            if let text = given[row.flag] { try row.apply(text, to: &options) }
        }
        try options.checkTogether()
        return options
    }

    /// What no single option can check: options that need or exclude each other.
    private func checkTogether() throws(Problem) {
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
