// openmarket-admin: reads flags and environment into one configuration, starts the embedded
// sandbox when no --api is given, starts the panel, and shuts both down on SIGINT/SIGTERM.
import AdminPanel
import Dispatch
import Foundation
import HTTPServer
import NetworkIO
import OpenMarketCore
import OpenMarketSandbox

#if canImport(Glibc)
import Glibc
#endif

func fail(_ reason: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("openmarket-admin: \(reason)\n".utf8))
    exit(status)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `Public/` or `Templates/`: the flag, else the checkout found around the binary or the working directory.
func folder(_ flag: String?, _ name: String, checkout: URL?) -> URL {
    let url: URL
    if let flag {
        url = URL(fileURLWithPath: flag)
    } else if let checkout {
        url = checkout.appendingPathComponent(name, isDirectory: true)
    } else {
        fail("cannot find the \(name)/ folder: run from the checkout or pass --\(name.lowercased()) DIR", status: 1)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        fail("the \(name.lowercased()) folder \(url.path) does not exist (pass --\(name.lowercased()) DIR)", status: 1)
    }
    return url
}

/// The embedded sandbox with the demo vendor (or the one given by --identifier/--secret).
func startSandbox(_ options: LaunchOptions) -> (Sandbox, ClientConfiguration, vendorID: Int?) {
    var configuration = SandboxConfiguration(dataDirectory: URL(fileURLWithPath: options.dataDirectory))
    // The embedded API stays on loopback even when the panel is shared: only the panel talks to
    // it (run `openmarket-sandbox` to offer an API to other clients).
    configuration.host = "127.0.0.1"
    configuration.port = options.sandboxPort
    configuration.dialect = options.dialect
    configuration.seed = options.seed
    if let identifier = options.identifier, let secret = options.secret {
        configuration.vendors = [VendorSeed(name: "seller", identifier: identifier, secret: secret)]
    }
    let sandbox: Sandbox
    do {
        sandbox = try Sandbox(configuration: configuration)
        _ = try sandbox.start()
    } catch {
        fail("the embedded sandbox could not start: \(error)", status: 1)
    }
    // The vendor the sandbox acts for: the one given by --identifier/--secret, else the demo vendor.
    let vendor = sandbox.demoVendor
    say("Sandbox API:  \(sandbox.baseURL.absoluteString)  (data in \(options.dataDirectory))")
    if options.dialect == .v1 {
        // v1 has no vendor: each product has its own password, chosen when it is registered.
        if options.seed > 0 { say("Sample products' password (v1): \(V1SampleItemsInfo.password)") }
    } else if options.identifier == nil {
        // A local tool's console, not a log: the seller needs this password for every delete.
        say("Demo vendor \"\(vendor.name)\" \(vendor.created ? "created" : "ready"). Its password, asked when you delete a product: \(vendor.secret)")
    }
    let client = ClientConfiguration(baseURL: sandbox.baseURL, dialect: options.dialect, identifier: vendor.identifier,
                                     secret: vendor.secret, timeout: options.timeout)
    return (sandbox, client, options.vendorID ?? vendor.id)
}

// `openmarket-admin backup DIR`: a consistent copy of DATA, also while a panel runs on it.
if CommandLine.arguments.dropFirst().first == "backup" {
    let command: BackupCommand?
    do {
        command = try BackupCommand.parse(Array(CommandLine.arguments.dropFirst(2)),
                                          environment: ProcessInfo.processInfo.environment)
    } catch {
        fail("\(error)", status: 2)
    }
    guard let command else {
        say(BackupCommand.usage)
        exit(0)
    }
    do {
        let summary = try DataBackup.run(data: URL(fileURLWithPath: command.dataDirectory),
                                         into: URL(fileURLWithPath: command.destination))
        let megabytes = Double(summary.bytes) / 1_048_576
        say("Backed up \(command.dataDirectory) to \(command.destination): \(summary.databases.joined(separator: ", ")), "
            + "\(summary.files) files (\(String(format: "%.1f", megabytes)) MB)")
        exit(0)
    } catch {
        fail("backup failed: \(error)", status: 1)
    }
}

let options: LaunchOptions
do {
    options = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()),
                                      environment: ProcessInfo.processInfo.environment)
} catch {
    fail(error.description, status: 2)
}
switch options.help {
case .text:
    say(LaunchOptions.usage)
    exit(0)
case .markdown:
    say(LaunchOptions.markdownTable)
    exit(0)
case nil:
    break
}

let executablePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let checkout = CheckoutLocator.checkoutRoot(executablePath: executablePath,
                                            workingDirectory: FileManager.default.currentDirectoryPath)
let publicDirectory = folder(options.publicDirectory, "Public", checkout: checkout)
let templatesDirectory = folder(options.templatesDirectory, "Templates", checkout: checkout)

// The clean stop (docs/stopping.md) on SIGINT/SIGTERM: the panel, then the
// sandbox it talks to, each stop accepting, finish what is in flight and close their databases;
// then the access log is drained and the process exits 0. A second signal hurries, never loses.
let cleanStop = CleanStop(announce: say)
let signalSources = cleanStop.listen()

let sandbox: Sandbox?
let client: ClientConfiguration
let vendorID: Int?
if let api = options.api, options.dialect == .v1 || (options.identifier != nil && options.secret != nil) {
    // v1 has no vendor credentials: every write carries the product's own password.
    sandbox = nil
    client = ClientConfiguration(baseURL: api, dialect: options.dialect, identifier: options.identifier ?? "",
                                 secret: options.secret ?? "", timeout: options.timeout)
    vendorID = options.vendorID
} else {
    let started = startSandbox(options)
    sandbox = started.0
    cleanStop.add(stop: { [sandbox = started.0] in await sandbox.shutdown() },
                  hurry: { [sandbox = started.0] in sandbox.hurryShutdown() })
    client = started.1
    vendorID = started.vendorID
}

var configuration = PanelConfiguration(host: options.host, port: options.port, api: client, vendorID: vendorID,
                                       publicDirectory: publicDirectory, templatesDirectory: templatesDirectory)
configuration.mediaOrigins = options.mediaOrigins
configuration.apiCertificateFile = options.apiCertificateFile
configuration.dataDirectory = URL(fileURLWithPath: options.dataDirectory)
configuration.allowedHosts = options.allowedHosts
configuration.activityDays = options.activityDays
configuration.maxConnections = options.maxConnections
configuration.timeZone = options.timeZone
configuration.publicURL = options.publicURL
configuration.trashDays = options.trashDays
// Listening beyond loopback turns on sign-in (people with their own passwords); --sign-in on loopback too.
configuration.signIn = options.signIn || !LaunchOptions.isLoopback(options.host)

configuration.tls = httpsContext(for: options)

let panel: AdminPanel
do {
    panel = try AdminPanel(configuration: configuration)
    let port = try panel.start()
    cleanStop.add(stop: { await panel.shutdown() }, hurry: { panel.hurryShutdown() })
    // The address colleagues open, never 0.0.0.0 (ColleagueAddress); the machine itself can
    // always use the loopback one.
    let loopback = "\(configuration.scheme)://127.0.0.1:\(port)"
    let shared = panel.colleagueBaseURL
    say("Admin panel:  \(shared)/")
    if shared != loopback { say("On this machine: \(loopback)/") }
    if let fingerprint = configuration.tls?.certificateFingerprint {
        // People compare it with what their browser shows before trusting the certificate.
        say("TLS certificate SHA-256: \(fingerprint)")
    }
    if panel.connectionCapacity < options.maxConnections {
        say("Open-file limit \(DescriptorLimit.current) (the hard limit) allows \(panel.connectionCapacity) connections, "
            + "fewer than --max-connections \(options.maxConnections); raise it with `ulimit -n`")
    }
    if let setup = panel.setupPath {
        // Printed anew at every start until an owner exists; the token lives only in this process.
        // At the colleagues' address (the owner may set up from another PC), and at the loopback
        // one for this machine (a LAN address can change; loopback always answers here).
        say("Set up the owner account: \(shared)\(setup)")
        if shared != loopback { say("  (on this machine: \(loopback)\(setup))") }
    }
} catch {
    fail("the panel could not start: \(error)", status: 1)
}

withExtendedLifetime(signalSources) { dispatchMain() }
