// A release-mode benchmark server: a 16 KiB static file and a small dynamic page.
// Usage: server-benchmark [--port N] [--loops N] [--handlers-on-loops]. Prints "listening on PORT"; stops on SIGINT/SIGTERM.
import Dispatch
import Foundation
import HTTPClient
import HTTPServer

var port = 8088
var loops = ServerConfiguration.defaultEventLoopCount
var handlersOnLoops = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = Int(arguments.next() ?? "") ?? port
    case "--loops": loops = Int(arguments.next() ?? "") ?? loops
    case "--handlers-on-loops": handlersOnLoops = true
    default:
        FileHandle.standardError.write(Data("usage: server-benchmark [--port N] [--loops N] [--handlers-on-loops]\n".utf8))
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
// Answered on the event loops (`Router.staticFiles`); a spelling with an escape such as
// `/static/%61pp.css` takes the ordinary route, for comparing the two paths.
router.staticFiles(prefix: "/static/", files: files)
router.get("/dynamic") { request in
    let name = request.query["name"] ?? "world"
    var html = "<!doctype html><html><head><title>Benchmark</title></head><body><h1>Hello, "
    html += name.replacingOccurrences(of: "<", with: "&lt;") + "</h1><ul>"
    for i in 1...10 { html += "<li>Item \(i)</li>" }
    html += "</ul></body></html>"
    return .html(html)
}

// A W2-like route without templates: fetch a 20-item JSON page from this same server through
// the pooled HTTPClient (upstream round trip on loopback), then answer with it.
var products = "{\"pageNo\":1,\"itemsPerPage\":20,\"pages\":["
for i in 1...20 {
    products += (i > 1 ? "," : "") + "{\"id\":\(i),\"name\":\"Product \(i)\",\"price\":\(i * 1000),\"currency\":\"KRW\","
        + "\"thumbnail\":\"https://example.com/images/\(i).png\",\"description\":\"\(String(repeating: "d", count: 200))\"}"
}
products += "]}"
let productsJSON = Data(products.utf8)
router.get("/upstream/products") { _ in .json(productsJSON) }
let client = HTTPClient()
let upstreamPort = Locked(0)
router.get("/proxy") { _ in
    let port = upstreamPort.value
    let upstream = try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/upstream/products")!,
                                         headers: [("Accept", "application/json")], body: nil, timeout: .seconds(10))
    return .json(upstream.body, status: upstream.status)
}

let server = HTTPServer(configuration: ServerConfiguration(port: port, accessLog: nil, eventLoopCount: loops,
                                                           runHandlersOnEventLoops: handlersOnLoops),
                        router: router)
let boundPort: Int
do {
    boundPort = try server.start()
} catch {
    FileHandle.standardError.write(Data("server-benchmark: \(error)\n".utf8))
    exit(1)
}
upstreamPort.value = boundPort
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
