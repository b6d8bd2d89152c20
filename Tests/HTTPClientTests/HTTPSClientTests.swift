import Foundation
import Testing
@testable import HTTPClient
import HTTPServer
import TLS
import TestSupport

/// `https://` on the client's own TLS (OpenSSL through the `TLS` target), against real TLS
/// listeners with self-signed certificates: trust, names, dates, pooling and the body limit.
@Suite(.serialized, .awaitsTeardown) struct HTTPSClientTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    static func trusting(_ certificate: SelfSignedTestCertificate) throws -> HTTPClient {
        HTTPClient(tls: try TLSContext.client(trustedCertificateFiles: [certificate.certificateFile], systemTrust: false))
    }

    @Test func sequentialRequestsShareOneTLSConnection() async throws {
        let certificate = try SelfSignedTestCertificate.make()
        defer { certificate.remove() }
        // A stub counts the connections (handshakes) it accepted.
        try await withServer({ try StubAPI(tls: certificate, router: clientRouter()) }) { server in
            let client = try Self.trusting(certificate)
            for index in 0..<20 {
                let url = URL(string: "https://127.0.0.1:\(server.port)/" + (index % 2 == 0 ? "json" : "stream"))!
                let response = try await client.send(method: "GET", url: url, timeout: .seconds(10))
                #expect(response.status == 200)
                if index % 2 == 1 { #expect(response.body.count == 100_011) }   // chunked, bigger than one TLS record
            }
            let echoed = try await client.send(method: "POST", url: URL(string: "https://127.0.0.1:\(server.port)/echo")!,
                                               body: Data(repeating: 0x61, count: 300_000), timeout: .seconds(10))
            #expect(echoed.body == Data(repeating: 0x61, count: 300_000))
            #expect(server.connections == 1)
            #expect(server.openConnections == 1)
        }
    }

    /// The refusals name their reason; nothing reaches the handler.
    @Test func certificatesThatCannotBeTrustedAreRefusedWithTheirReason() async throws {
        let selfSigned = try SelfSignedTestCertificate.make()
        let otherName = try SelfSignedTestCertificate.make(names: ["api.example.com"])
        let expired = try SelfSignedTestCertificate.make(expired: true)
        defer { for certificate in [selfSigned, otherName, expired] { certificate.remove() } }
        let cases: [(SelfSignedTestCertificate, HTTPClient, String, String)] = [
            (selfSigned, HTTPClient(), "127.0.0.1", "self-signed certificate"),
            (otherName, try Self.trusting(otherName), "127.0.0.1", "IP address mismatch"),
            (otherName, try Self.trusting(otherName), "localhost", "hostname mismatch"),
            (expired, try Self.trusting(expired), "127.0.0.1", "certificate has expired"),
        ]
        // localhost must reach the listener on 127.0.0.1, or the name case would test nothing.
        #expect(ClientAddress.resolve(host: "localhost", port: 80)?.family == AF_INET)
        let handled = Counter()
        var router = Router()
        router.notFoundHandler = { _, _ in
            handled.increment()
            return .text("should not be reached")
        }
        for (certificate, client, host, reason) in cases {
            try await withServer({ try StubAPI(tls: certificate, router: router) }) { server in
                do {
                    _ = try await client.send(method: "GET", url: URL(string: "https://\(host):\(server.port)/")!, timeout: .seconds(10))
                    Issue.record("\(reason): the request was answered")
                } catch let error as HTTPClientError {
                    guard case .connectionFailed(let text) = error else { Issue.record("\(reason): \(error)"); return }
                    #expect(text == "the server's TLS certificate was refused: \(reason)")
                }
            }
        }
        #expect(handled.value == 0)
    }

    /// 30 MiB streamed over TLS (no length declared) fails once past the limit, long before the
    /// timeout; the same client then gets a normal answer on a new connection.
    @Test func aBodyOverTheLimitFailsOverTLSToo() async throws {
        let certificate = try SelfSignedTestCertificate.make()
        defer { certificate.remove() }
        var router = clientRouter()
        router.get("/huge") { _ in
            HTTPResponse(body: .stream(AsyncThrowingStream { continuation in
                let megabyte = Data(repeating: 0x5B, count: 1 << 20)
                for _ in 0..<30 { continuation.yield(megabyte) }
                continuation.finish()
            }))
        }
        router.get("/declared") { _ in HTTPResponse(body: .data(Data(repeating: 0x5B, count: 30 << 20))) }
        try await withServer({ try StubAPI(tls: certificate, router: router) }) { server in
            let client = HTTPClient(maxResponseBodyBytes: 8 << 20,
                                    tls: try TLSContext.client(trustedCertificateFiles: [certificate.certificateFile], systemTrust: false))
            for path in ["/huge", "/declared"] {
                let started = ContinuousClock.now
                await #expect(throws: HTTPClientError.bodyTooLarge(limit: 8 << 20)) {
                    _ = try await client.send(method: "GET", url: URL(string: "https://127.0.0.1:\(server.port)\(path)")!,
                                              timeout: .seconds(30))
                }
                #expect(ContinuousClock.now - started < .seconds(20), "\(path)")
            }
            let fine = try await client.send(method: "GET", url: URL(string: "https://127.0.0.1:\(server.port)/json")!, timeout: .seconds(10))
            #expect(fine.status == 200)
        }
    }

    /// A 3xx comes back as it is: the client never asks the address in `Location`.
    @Test func redirectsAreHandedBackNotFollowed() async throws {
        let certificate = try SelfSignedTestCertificate.make()
        defer { certificate.remove() }
        let elsewhere = Counter()
        var other = Router()
        other.notFoundHandler = { _, _ in elsewhere.increment(); return .text("elsewhere") }
        try await withServer(other) { _, otherPort in
            var router = Router()
            router.notFoundHandler = { _, _ in
                HTTPResponse(status: 307, headers: HTTPHeaders([("Location", "http://127.0.0.1:\(otherPort)/steal")]))
            }
            try await withServer({ try StubAPI(tls: certificate, router: router) }) { server in
                let client = try Self.trusting(certificate)
                let answer = try await client.send(method: "POST", url: URL(string: "https://127.0.0.1:\(server.port)/v2/products")!,
                                                   headers: [("identifier", "vendor-id")], body: Data("secret".utf8), timeout: .seconds(10))
                #expect(answer.status == 307)
                #expect(elsewhere.value == 0)
            }
        }
    }

    /// The default `Host` leaves out the scheme's default port, like browsers.
    @Test func hostHeaderOmitsTheDefaultPort() throws {
        let plain = try HTTPClient.serialize(method: "GET", url: URL(string: "http://api.example/x")!, host: "api.example",
                                             port: nil, headers: [], body: nil)
        #expect(String(decoding: plain, as: UTF8.self).contains("\r\nHost: api.example\r\n"))
        let other = try HTTPClient.serialize(method: "GET", url: URL(string: "https://api.example:8443/x")!, host: "api.example",
                                             port: 8443, headers: [], body: nil)
        #expect(String(decoding: other, as: UTF8.self).contains("\r\nHost: api.example:8443\r\n"))
    }
}
