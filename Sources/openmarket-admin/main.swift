// openmarket-admin: reads flags and environment into one configuration, starts the embedded
// sandbox when no --api is given, starts the panel, and shuts both down on SIGINT/SIGTERM.
import AdminPanel
import Dispatch
import Foundation
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

let options: LaunchOptions
do {
    options = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    fail(error.description, status: 2)
}
if options.showHelp {
    say(LaunchOptions.usage)
    exit(0)
}

// Templates/ and Public/: the flags, else the checkout around the binary or the working directory.
let executablePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let checkout = CheckoutLocator.checkoutRoot(executablePath: executablePath,
                                            workingDirectory: FileManager.default.currentDirectoryPath)
func folder(_ flag: String?, _ name: String) -> URL {
    if let flag { return URL(fileURLWithPath: flag) }
    guard let checkout else {
        fail("cannot find the \(name)/ folder: start from the checkout or pass --\(name.lowercased()) DIR", status: 1)
    }
    return checkout.appendingPathComponent(name, isDirectory: true)
}
let publicDirectory = folder(options.publicDirectory, "Public")
let templatesDirectory = folder(options.templatesDirectory, "Templates")

// The API: a remote one, or the embedded sandbox with the demo vendor (or the given vendor).
var sandbox: Sandbox?
let client: ClientConfiguration
var vendorID = options.vendorID
if let api = options.api, let identifier = options.identifier, let secret = options.secret {
    client = ClientConfiguration(baseURL: api, dialect: options.dialect, identifier: identifier, secret: secret,
                                 timeout: options.timeout)
} else {
    var configuration = SandboxConfiguration(dataDirectory: URL(fileURLWithPath: options.dataDirectory))
    configuration.host = LaunchOptions.isLoopback(options.host) ? "127.0.0.1" : options.host
    configuration.port = options.sandboxPort
    configuration.dialect = options.dialect
    configuration.seed = options.seed
    if let identifier = options.identifier, let secret = options.secret {
        configuration.vendors = [VendorSeed(name: "seller", identifier: identifier, secret: secret)]
    }
    do {
        let started = try Sandbox(configuration: configuration)
        _ = try started.start()
        sandbox = started
    } catch {
        fail("the embedded sandbox could not start: \(error)", status: 1)
    }
    let demo = sandbox!.demoVendor
    if let identifier = options.identifier, let secret = options.secret {
        client = ClientConfiguration(baseURL: sandbox!.baseURL, dialect: options.dialect, identifier: identifier,
                                     secret: secret, timeout: options.timeout)
    } else {
        client = ClientConfiguration(baseURL: sandbox!.baseURL, dialect: options.dialect, identifier: demo.identifier,
                                     secret: demo.secret, timeout: options.timeout)
        vendorID = vendorID ?? demo.id
    }
    say("Sandbox API: \(sandbox!.baseURL.absoluteString)  (data in \(options.dataDirectory))")
    if demo.created, options.identifier == nil {
        say("Demo vendor \"\(demo.name)\" created. Its password (asked when you delete a product): \(demo.secret)")
    }
}

var configuration = PanelConfiguration(host: options.host, port: options.port, api: client, vendorID: vendorID,
                                       publicDirectory: publicDirectory, templatesDirectory: templatesDirectory)
if !LaunchOptions.isLoopback(options.host) {
    configuration.accessCode = options.accessCode ?? LaunchOptions.generatedAccessCode()
} else {
    configuration.accessCode = options.accessCode
}

let panel: AdminPanel
do {
    panel = try AdminPanel(configuration: configuration)
    let port = try panel.start()
    let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
    say("Admin panel: http://\(shownHost):\(port)/")
    if configuration.accessCode != nil, options.accessCode == nil {
        say("Access code (sign-in on the network): \(configuration.accessCode!)")
    }
} catch {
    fail("the panel could not start: \(error)", status: 1)
}

// Graceful shutdown: stop accepting, let requests finish, then exit.
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let stopping = ManagedAtomicFlag()
var signalSources: [DispatchSourceSignal] = []
for number in [SIGINT, SIGTERM] {
    let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
    source.setEventHandler {
        guard stopping.setOnce() else { exit(1) }
        say("Shutting down…")
        Task {
            await panel.shutdown()
            await sandbox?.shutdown()
            exit(0)
        }
    }
    source.resume()
    signalSources.append(source)
}
dispatchMain()
