import Foundation
import HTTPServer
#if canImport(Glibc)
import Glibc
#endif

/// What a photo server can do to a client that fetches from it, one behaviour per path
/// (`/{rawValue}.png`), for the import's photo URLs. Plain HTTP serves every case through a
/// `StubAPI` fault program (raw bytes, however broken); HTTPS serves those a real server can
/// send (`tlsCases`) through `StubAPI(tls:router:)`.
public enum HostilePhoto: String, CaseIterable, Sendable {
    case good
    case negativeLength = "negative-length"
    case giantChunk = "giant-chunk"
    case lyingChunk = "lying-chunk"
    case lyingLength = "lying-length"
    case endlessHead = "endless-head"
    case redirect301 = "redirect-301"
    case redirect302 = "redirect-302"
    case redirect307 = "redirect-307"
    case redirect308 = "redirect-308"
    /// 600 MiB, no length declared: the client must stop at its cap while reading.
    case huge
    /// 600 MiB declared up front.
    case hugeDeclared = "huge-declared"
    case gzip
    /// One byte a second, forever.
    case drip

    /// Those a well-behaved HTTPS server can be told to send.
    public static let tlsCases: [HostilePhoto] = [.good, .redirect301, .redirect302, .redirect307, .redirect308, .huge,
                                                  .gzip, .drip]

    public static let hugeBytes = 600 << 20

    public var redirectStatus: Int? {
        switch self {
        case .redirect301: 301
        case .redirect302: 302
        case .redirect307: 307
        case .redirect308: 308
        default: nil
        }
    }
}

public enum HostilePhotoServer {
    /// Plain HTTP: every case. Redirects point at `internalTarget` (a server that must never be
    /// asked anything); `good` answers `photo`.
    public static func plain(photo: Data, internalTarget: URL) throws -> StubAPI {
        try StubAPI(faults: { connection in
            guard let request = connection.readRequest() else { return }
            let name = String(request.path.dropFirst().prefix { $0 != "." })
            guard let behaviour = HostilePhoto(rawValue: name) else {
                connection.respond(status: 404)
                return
            }
            serve(behaviour, on: connection, photo: photo, internalTarget: internalTarget)
        })
    }

    private static func serve(_ behaviour: HostilePhoto, on connection: StubConnection, photo: Data, internalTarget: URL) {
        let location = internalTarget.appendingPathComponent("secret.png").absoluteString
        switch behaviour {
        case .good:
            connection.respond(status: 200, headers: [("Content-Type", "image/png")], body: Array(photo))
        case .negativeLength:
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: -1\r\n\r\n")
            connection.write(Array(photo))
        case .giantChunk:
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n")
            connection.write(Array(photo))
        case .lyingChunk:
            // Announces 1 MiB, sends the photo, then ends the body as if the chunk were complete.
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n")
            connection.write(Array(photo))
            connection.write("\r\n0\r\n\r\n")
        case .lyingLength:
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(photo.count + 5000)\r\n\r\n")
            connection.write(Array(photo))
        case .endlessHead:
            connection.write("HTTP/1.1 200 OK\r\n")
            let filler = Array(String(repeating: "X-Filler: \(String(repeating: "a", count: 100))\r\n", count: 100).utf8)
            while connection.write(filler) {}
        case .redirect301, .redirect302, .redirect307, .redirect308:
            connection.respond(status: behaviour.redirectStatus!, reason: "Moved", headers: [("Location", location)])
        case .huge, .hugeDeclared:
            var head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n"
            head += behaviour == .huge ? "Connection: close\r\n\r\n" : "Content-Length: \(HostilePhoto.hugeBytes)\r\n\r\n"
            guard connection.write(head), connection.write(Array(photo)) else { return }
            let block = [UInt8](repeating: 0x41, count: 1 << 20)
            for _ in 0..<(HostilePhoto.hugeBytes >> 20) where connection.write(block) {}
        case .gzip:
            // A tiny gzip stream (of zeros): inflating such a thing is how bombs work.
            let gzipped: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x63, 0x60, 0x18, 0x05, 0xA3, 0x60, 0x14, 0x0C,
                                    0x77, 0, 0, 0x7D, 0xE9, 0x2F, 0x1B, 0, 0x40, 0, 0]
            connection.respond(status: 200, headers: [("Content-Type", "image/png"), ("Content-Encoding", "gzip")], body: gzipped)
        case .drip:
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(photo.count)\r\n\r\n") else { return }
            for byte in photo {
                guard connection.write([byte]) else { return }
                if connection.waitForPeer(seconds: 1) { return }   // the client gave up
            }
        }
    }

    /// HTTPS with `certificate`: the `tlsCases`, as a real server sends them.
    public static func tls(certificate: SelfSignedTestCertificate, photo: Data, internalTarget: URL) throws -> StubAPI {
        let location = internalTarget.appendingPathComponent("secret.png").absoluteString
        var router = Router()
        for behaviour in HostilePhoto.tlsCases {
            router.get("/\(behaviour.rawValue).png") { _ in response(behaviour, photo: photo, location: location) }
        }
        return try StubAPI(tls: certificate, router: router)
    }

    private static func response(_ behaviour: HostilePhoto, photo: Data, location: String) -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "image/png")])
        switch behaviour {
        case .redirect301, .redirect302, .redirect307, .redirect308:
            return HTTPResponse(status: behaviour.redirectStatus!, headers: HTTPHeaders([("Location", location)]))
        case .huge:
            // Made as it is sent, a mebibyte at a time: the test process never holds 600 MiB.
            let left = Countdown(HostilePhoto.hugeBytes >> 20)
            let block = Data(repeating: 0x41, count: 1 << 20)
            return HTTPResponse(headers: headers, body: .stream(AsyncThrowingStream { left.take() ? block : nil }))
        case .gzip:
            headers["Content-Encoding"] = "gzip"
            return HTTPResponse(headers: headers, body: .data(Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x03, 0, 0, 0, 0, 0,
                                                                    0, 0, 0, 0])))
        case .drip:
            let left = Countdown(photo.count)
            let stream = AsyncThrowingStream<Data, any Error> {
                guard left.take() else { return nil }
                let index = photo.count - 1 - left.remaining
                if index > 0 { try await Task.sleep(for: .seconds(1)) }   // the server's pace, not a wait of the test
                return photo.subdata(in: index..<(index + 1))
            }
            return HTTPResponse(headers: headers, body: .stream(stream))
        default:
            return HTTPResponse(headers: headers, body: .data(photo))
        }
    }
}

/// How many more pieces a streamed answer sends, taken one at a time.
private final class Countdown: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int

    init(_ count: Int) { left = count }

    var remaining: Int { lock.withLock { left } }

    /// True while pieces are left (and counts one off).
    func take() -> Bool {
        lock.withLock {
            guard left > 0 else { return false }
            left -= 1
            return true
        }
    }
}
