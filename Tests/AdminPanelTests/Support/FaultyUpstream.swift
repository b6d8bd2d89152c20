import Foundation
import TestSupport

/// A stand-in for the Open Market API in front of a real one (a sandbox), switched between
/// behaving and misbehaving while the panel is under load; a fault program on the test kit's
/// `StubAPI`:
///
/// - `.healthy`: each request is passed on to the backend and its answer back, re-framed with
///   `Content-Length` so the panel's pooled keep-alive connections stay in use. The `Host`
///   header is kept, so the sandbox's image links name this stand-in, as they would the API.
/// - `.flapping`: new connections are reset at once; a request on an open connection is answered,
///   in turn, by a reset, by a close, or by half a response and a close.
/// - `.slow`: a request is held until the panel gives up and closes the connection, in turn
///   without a byte, or while an answer trickles in a byte at a time. Only if the panel still
///   waits after `slowHold` (its timeout should have ended the wait long before) is the request
///   passed on, late.
/// - `.garbage`: answers, in turn, with bytes that are not HTTP, a malformed HTTP head, a head
///   that never ends, a 30 MiB body, and valid HTTP whose body is HTML, truncated JSON, or JSON
///   of the wrong shape.
///
/// A request that meets a fault never reaches the backend, so a write the panel reports as failed
/// did not happen.
final class FaultyUpstream: @unchecked Sendable {
    enum Mode: String, Sendable, CaseIterable { case healthy, flapping, slow, garbage }

    let backendPort: Int
    let slowHold: TimeInterval
    private var stub: StubAPI!
    private let lock = NSLock()
    // Guarded by `lock`.
    private var currentMode = Mode.healthy
    private var handled: [Mode: Int] = [:]
    /// Requests so far: picks the next fault in turn.
    private var turns = 0

    init(backendPort: Int, slowHold: TimeInterval) throws {
        self.backendPort = backendPort
        self.slowHold = slowHold
        stub = try StubAPI(faults: { [unowned self] connection in serve(connection) })
    }

    var port: Int { stub.port }
    var url: URL { stub.url }

    var mode: Mode {
        get { lock.withLock { currentMode } }
        set { lock.withLock { currentMode = newValue } }
    }

    /// Requests (and, when flapping, connections) met in each mode so far.
    func handledCount(_ mode: Mode) -> Int { lock.withLock { handled[mode, default: 0] } }

    /// Connections from the panel open right now.
    var openConnections: Int { stub.openConnections }

    func stop() async { await stub.stop() }

    // MARK: Connections

    private func serve(_ connection: StubConnection) {
        if mode == .flapping {
            lock.withLock { handled[.flapping, default: 0] += 1 }
            connection.reset()
            return
        }
        var open = true
        while open, let request = connection.readRequest() {
            let (mode, turn) = lock.withLock { () -> (Mode, Int) in
                handled[currentMode, default: 0] += 1
                turns += 1
                return (currentMode, turns)
            }
            switch mode {
            case .healthy: open = forward(request, to: connection)
            case .flapping: flap(connection, turn: turn); return
            case .slow: open = !panelGaveUp(connection, trickling: turn % 2 == 0) && forward(request, to: connection)
            case .garbage: open = sendGarbage(connection, turn: turn)
            }
        }
    }

    // MARK: Faults

    private func flap(_ connection: StubConnection, turn: Int) {
        switch turn % 3 {
        case 0: connection.reset()
        case 1: connection.close()   // closed without a byte
        default:
            // A head promising 4 KiB, a few bytes of it, then the connection is gone.
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"page_no\":1,\"pages\":[")
            connection.close()
        }
    }

    /// Waits for the panel to close the connection (true), or `slowHold` to pass (false).
    /// Trickling, it sends the head of a long answer and then a byte every 50 ms.
    private func panelGaveUp(_ connection: StubConnection, trickling: Bool) -> Bool {
        if trickling {
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        }
        let gaveUp = connection.waitForPeer(seconds: slowHold, heartbeat: trickling ? [UInt8(ascii: " ")] : nil)
        return gaveUp || trickling   // a trickled answer cannot be followed by another one
    }

    /// Answers true when the connection stays usable after the garbage.
    private func sendGarbage(_ connection: StubConnection, turn: Int) -> Bool {
        func valid(_ body: String) -> Bool {
            connection.respond(status: 200, reason: "OK", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        }
        switch turn % 7 {
        case 0:
            connection.write("SSH-2.0-OpenSSH_9.6\r\n")
            return false
        case 1:
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: twelve\r\n\r\n")
            return false
        case 2:
            // Header lines until the panel stops reading (1 MiB at most).
            var head = Array("HTTP/1.1 200 OK\r\n".utf8)
            for i in 0..<16_384 { head += Array("X-Junk-\(i): \(String(repeating: "a", count: 48))\r\n".utf8) }
            connection.write(head)
            return false
        case 3:
            // 30 MiB of JSON-looking bytes, which the panel should refuse by their declared length
            // (buffered, they left its RSS ~50 MiB higher for good). Sent until it stops reading.
            connection.write(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(30 << 20)\r\n\r\n".utf8)
                             + [UInt8](repeating: UInt8(ascii: "["), count: 30 << 20))
            return false
        case 4: return valid("<html><body><h1>502 Bad Gateway</h1></body></html>")
        case 5: return valid("{\"page_no\":1,\"pages\":[{\"id\":")
        default: return valid("{\"hello\":\"world\"}")
        }
    }

    // MARK: Passing on

    /// Passes the request to the backend (asking it to close after answering) and writes the
    /// answer back with a `Content-Length` of its own.
    private func forward(_ request: StubRequest, to connection: StubConnection) -> Bool {
        guard let lineEnd = request.raw.firstIndex(of: 13) else { return false }
        let rewritten = Array(request.raw[..<(lineEnd + 2)]) + Array("Connection: close\r\n".utf8) + request.raw[(lineEnd + 2)...]
        guard let answer = try? RawHTTPClient.exchangeNow(port: backendPort, bytes: rewritten) else {
            return connection.respond(status: 503, reason: "Backend Down")
        }
        let headers = answer.headers.filter {
            !["content-length", "transfer-encoding", "connection", "keep-alive"].contains($0.name.lowercased())
        }
        return connection.respond(status: answer.status, reason: "Forwarded", headers: headers.map { ($0.name, $0.value) },
                                  body: Array(answer.body))
    }
}
