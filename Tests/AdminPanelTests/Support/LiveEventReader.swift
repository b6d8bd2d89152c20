import Foundation
import TestSupport

/// A client of the panel's `/events`: opens the stream with a browser's cookies and reads it
/// event by event (chunked framing undone, comments kept apart).
final class LiveEventReader: @unchecked Sendable {
    struct Event: Equatable {
        var name: String
        var id: String?
        var data: String

        /// The data as JSON (product events).
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
    }

    let client: RawHTTPClient
    let head: String
    private var body = ""
    /// Comment lines seen so far (`: keep-alive`).
    private(set) var comments: [String] = []

    private init(client: RawHTTPClient, head: String) {
        self.client = client
        self.head = head
    }

    /// `GET path` with the browser's cookies; the head must be a 200 event stream.
    static func open(_ browser: TestBrowser, path: String = "/events", headers: [(String, String)] = []) async throws -> LiveEventReader {
        guard browser.router == nil else { throw TestClientFailure(description: "/events needs the live tier (Options.live)") }
        let client = try await RawHTTPClient.connect(port: browser.port, timeoutSeconds: 20)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(browser.port)\r\nAccept: text/event-stream\r\n"
        let cookies = browser.cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        if !cookies.isEmpty { request += "Cookie: \(cookies)\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try await client.send(request + "\r\n")
        let head = try await client.read(through: "\r\n\r\n")
        return LiveEventReader(client: client, head: head)
    }

    /// The next event (comments are collected, not returned).
    func next() async throws -> Event {
        try await offPool { try self.nextNow() }
    }

    /// Events until `count` product events were read.
    func products(_ count: Int) async throws -> [Event] {
        var found: [Event] = []
        while found.count < count {
            let event = try await next()
            if event.name == "product" { found.append(event) }
        }
        return found
    }

    /// True when the server ended the stream (final chunk, then the close).
    func ends() async -> Bool {
        (try? await offPool { () throws -> Bool in
            while true {
                if try !self.readChunk() { return true }
            }
        }) ?? false
    }

    private func nextNow() throws -> Event {
        while true {
            if let end = body.range(of: "\n\n") {
                let block = String(body[..<end.lowerBound])
                body.removeSubrange(..<end.upperBound)
                var event = Event(name: "message", id: nil, data: "")
                var dataLines: [String] = []
                var isComment = true
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { comments.append(String(line.dropFirst())); continue }
                    isComment = false
                    let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                    let field = String(parts[0])
                    var value = parts.count > 1 ? String(parts[1]) : ""
                    if value.hasPrefix(" ") { value.removeFirst() }
                    switch field {
                    case "event": event.name = value
                    case "id": event.id = value
                    case "data": dataLines.append(value)
                    default: break
                    }
                }
                if isComment { continue }
                event.data = dataLines.joined(separator: "\n")
                return event
            }
            guard try readChunk() else { throw TestClientFailure(description: "the stream ended") }
        }
    }

    /// Reads one chunk into `body`; false at the final chunk.
    private func readChunk() throws -> Bool {
        let line = try client.readNow(through: "\r\n")
        guard let size = Int(line.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) else { throw TestClientFailure(description: "bad chunk line \(line)") }
        let bytes = try client.readNow(count: size + 2)
        if size == 0 { return false }
        body += String(decoding: bytes.dropLast(2), as: UTF8.self)
        return true
    }
}
