// A release-mode benchmark server: a 16 KiB static file and a small dynamic page.
// Usage: server-benchmark [--port N] [--loops N]. Prints "listening on PORT"; stops on SIGINT/SIGTERM.
import Dispatch
import Foundation
import HTTPServer

var port = 8088
var loops = 1
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = Int(arguments.next() ?? "") ?? port
    case "--loops": loops = Int(arguments.next() ?? "") ?? loops
    default:
        FileHandle.standardError.write(Data("usage: server-benchmark [--port N] [--loops N]\n".utf8))
        exit(2)
    }
}

// The static file: 16 KiB of CSS-like text in a private temporary folder.
let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("server-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
var css = ""
var rule = 0
while css.utf8.count < 16 * 1024 {
    css += ".rule-\(rule) { margin: \(rule % 17)px; color: #\(String(rule * 2654435761 % 0xFFFFFF, radix: 16)); }\n"
    rule += 1
}
try Data(css.utf8.prefix(16 * 1024)).write(to: root.appendingPathComponent("app.css"))

let files = try StaticFiles(root: root)
var router = Router()
router.get("/static/{path...}") { request in
    files.response(for: request.pathParameters["path"] ?? "", request: request)
}
router.get("/dynamic") { request in
    let name = request.query["name"] ?? "world"
    var html = "<!doctype html><html><head><title>Benchmark</title></head><body><h1>Hello, "
    html += name.replacingOccurrences(of: "<", with: "&lt;") + "</h1><ul>"
    for i in 1...10 { html += "<li>Item \(i)</li>" }
    html += "</ul></body></html>"
    return .html(html)
}

let server = HTTPServer(configuration: ServerConfiguration(port: port, accessLog: nil, eventLoopCount: loops),
                        router: router)
let boundPort = try server.start()
FileHandle.standardOutput.write(Data("listening on \(boundPort)\n".utf8))

signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let (stopRequests, stopContinuation) = AsyncStream.makeStream(of: Int32.self)
let signalSources = [SIGINT, SIGTERM].map { sig in
    let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
    source.setEventHandler { stopContinuation.yield(sig) }
    source.resume()
    return source
}
for await _ in stopRequests { break }
signalSources.forEach { $0.cancel() }
await server.shutdown(deadline: .seconds(2))
try? FileManager.default.removeItem(at: root)
