import Dispatch
import Foundation
import OpenMarketSandbox

// openmarket-sandbox: runs the Open Market API sandbox alone (see --help).

func fail(_ reason: String) -> Never {
    FileHandle.standardError.write(Data("openmarket-sandbox: \(reason)\n".utf8))
    exit(2)
}

let configuration: SandboxConfiguration
do {
    switch try SandboxCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(SandboxCommandLine.usage)
        exit(0)
    case .run(let parsed):
        configuration = parsed
    }
} catch {
    fail(error.description)
}

let sandbox: Sandbox
do {
    sandbox = try Sandbox(configuration: configuration)
    _ = try sandbox.start()
} catch let error as SandboxStartupError {
    fail(error.description)
} catch {
    fail("cannot start: \(error)")
}

print("Open Market sandbox (\(configuration.dialect.rawValue)) listening on \(sandbox.baseURL.absoluteString)")
print("Data folder: \(configuration.dataDirectory.path)")
let demo = sandbox.demoVendor
if demo.created {
    // Shown once, on the first start: the store keeps it, nothing prints it again.
    print("Demo vendor created: name \(demo.name), vendor id \(demo.id)")
    print("  identifier: \(demo.identifier)")
    print("  password:   \(demo.secret)")
}

// SIGINT/SIGTERM: stop accepting, let requests in flight finish, then exit.
let (stopRequests, stopContinuation) = AsyncStream<Int32>.makeStream()
let signalSources = [SIGINT, SIGTERM].map { signalNumber -> any DispatchSourceSignal in
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    source.setEventHandler { stopContinuation.yield(signalNumber) }
    source.resume()
    return source
}
for await _ in stopRequests { break }
print("Stopping…")
await sandbox.shutdown()
withExtendedLifetime(signalSources) {}
exit(0)
