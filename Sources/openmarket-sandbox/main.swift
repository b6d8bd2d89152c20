import Dispatch
import Foundation
import HTTPServer
import OpenMarketSandbox

// openmarket-sandbox: runs the Open Market API sandbox alone (see --help).

/// Writes a line at once (unbuffered even into a pipe, so a supervisor sees it immediately).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ reason: String) -> Never {
    FileHandle.standardError.write(Data("openmarket-sandbox: \(reason)\n".utf8))
    exit(2)
}

let configuration: SandboxConfiguration
do {
    switch try SandboxCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        say(SandboxCommandLine.usage)
        exit(0)
    case .run(let parsed):
        configuration = parsed
    }
} catch {
    fail(error.description)
}

// The clean stop (docs/stopping.md): SIGTERM/SIGINT stop accepting, let requests
// in flight finish, close the store, drain the access log, exit 0. A second signal hurries it.
let cleanStop = CleanStop(announce: say)
let signalSources = cleanStop.listen()
let sandbox: Sandbox
do {
    sandbox = try Sandbox(configuration: configuration)
    _ = try sandbox.start()
} catch let error as SandboxStartupError {
    fail(error.description)
} catch {
    fail("cannot start on \(configuration.host):\(configuration.port): \(error)")
}

say("Data folder: \(configuration.dataDirectory.path)")
let demo = sandbox.demoVendor
if configuration.dialect == .v1 {
    // v1 has no vendors: each item has its own password, chosen when it is registered.
    if configuration.seed > 0 { say("Sample items' password (v1): \(V1SampleItemsInfo.password)") }
} else if demo.created {
    // Shown once, on the first start: the store keeps it, nothing prints it again.
    say("Demo vendor created: name \(demo.name), vendor id \(demo.id)")
    say("  identifier: \(demo.identifier)")
    say("  password:   \(demo.secret)")
}
// Last, so that a supervisor that waits for the URL has seen everything before it.
cleanStop.add(stop: { await sandbox.shutdown() }, hurry: { sandbox.hurryShutdown() })
say("Open Market sandbox (\(configuration.dialect.rawValue)) listening on \(sandbox.baseURL.absoluteString)")

withExtendedLifetime(signalSources) { dispatchMain() }
