import Foundation
import Testing
import TLS
import TestSupport
@testable import HTTPServer

/// Runs a plain-HTTP test's body with server and clients speaking TLS instead.
func overTLS(_ body: () async throws -> Void) async throws {
    try await Wire.$current.withValue(.tls) { try await body() }
}

/// The hostile-request and end-to-end tests of plain HTTP, unchanged, over TLS: every limit,
/// deadline and refusal must hold inside TLS too.
@Suite(.serialized, .awaitsTeardown) struct TLSHostileRequestTests {
    let robust = ServerRobustnessTests()
    let endToEnd = ServerEndToEndTests()

    @Test func malformedRequest() async throws { try await overTLS { try await robust.malformedRequestGets400AndClose() } }
    @Test func expectContinue() async throws { try await overTLS { try await robust.expectContinueIsAnsweredOnlyWhenTheLimitPasses() } }
    @Test func oversizedBody() async throws { try await overTLS { try await robust.oversizedBodyIsRefusedBeforeItIsRead() } }
    @Test func unreadSmallBody() async throws { try await overTLS { try await robust.unreadSmallBodyIsDrainedAndTheConnectionReused() } }
    @Test func halfClosedClient() async throws { try await overTLS { try await robust.halfClosedClientStillGetsItsAnswers() } }
    @Test func slowHead() async throws { try await overTLS { try await robust.slowClientIsClosedAtTheDeadlineWhileOthersAreServed() } }
    @Test func idleKeepAlive() async throws { try await overTLS { try await robust.idleKeepAliveConnectionIsClosed() } }
    @Test func stalledBody() async throws { try await overTLS { try await robust.stalledBodyTimesOut() } }
    @Test func writeDeadline() async throws { try await overTLS { try await robust.clientThatStopsReadingHitsTheWriteDeadline() } }
    @Test func vanishingClients() async throws { try await overTLS { try await robust.clientsVanishingMidRequestLeaveNothingOpen() } }
    @Test func keepAlive() async throws { try await overTLS { try await endToEnd.keepAliveServesSeveralRequestsOnOneConnection() } }
    @Test func pipelining() async throws { try await overTLS { try await endToEnd.pipelinedRequestsAreAnsweredInOrder() } }
    @Test func chunkedBody() async throws { try await overTLS { try await endToEnd.chunkedBodyAndForm() } }
    @Test func bodyOverLimit() async throws { try await overTLS { try await endToEnd.bodyOverRouteLimitGets413AndClose() } }
    @Test func streamedResponses() async throws { try await overTLS { try await endToEnd.streamedResponsesAreChunkedOrCloseDelimited() } }
    @Test func http10() async throws { try await overTLS { try await endToEnd.http10ClosesUnlessKeepAlive() } }
    @Test func slowReader() async throws { try await overTLS { try await UploadEndToEndTests().slowReaderGetsTheWholeBodyThroughBackPressure() } }
    @Test func multipartUpload() async throws { try await overTLS { try await UploadEndToEndTests().multipartUploadOverTheWireIsSpooledAndCleanedUp() } }
}

/// Runs a command-line tool; answers its status and output (standard error included).
func runTool(_ path: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    let result = try await offPool { try ChildProcess.run(path, arguments, errorToOutput: true) }
    return (result.termination.status, result.output)
}

/// TLS-only behaviour, checked with independent clients (curl, openssl s_client, Python's ssl)
/// and with raw bytes.
@Suite(.serialized, .awaitsTeardown) struct TLSServerTests {
    @Test func curlGetsThePageOverVerifiedHTTPSWithTheCertificateItExpects() async throws {
        try await overTLS {
            try await withServer(echoRouter()) { _, port in
                let url = "https://localhost:\(port)/hello/a"
                let result = try await runTool("/usr/bin/curl", [
                    "-sS", "--cacert", TestCertificate.files.certificateFile, "--http1.1",
                    "-w", "\n%{http_version} %{http_code}", url, url.replacingOccurrences(of: "/a", with: "/b")])
                #expect(result.status == 0, "\(result.output)")
                #expect(result.output.contains("hello a"))
                #expect(result.output.contains("hello b\n1.1 200"))
                // The fingerprint a client sees is the one the server reports.
                let seen = try await runTool("/bin/sh", ["-c",
                    "openssl s_client -connect 127.0.0.1:\(port) -servername localhost </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256"])
                let printed = try #require(TestCertificate.serverContext.certificateFingerprint)
                #expect(seen.output.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("=" + printed), "\(seen.output)")
            }
        }
    }

    @Test func tls12And13AreSpokenWithALPNHTTP11AndOlderVersionsAreRefused() async throws {
        try await overTLS {
            try await withServer(echoRouter()) { server, port in
                let client = try await RawHTTPClient.connect(port: port)
                #expect(client.tlsFacts?.version == "TLSv1.3")
                #expect(client.tlsFacts?.alpn == "http/1.1")
                let script = """
                    import ssl, socket, sys
                    port = int(sys.argv[1])
                    def attempt(version):
                        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                        context.check_hostname = False
                        context.verify_mode = ssl.CERT_NONE
                        try:
                            context.set_ciphers("DEFAULT:@SECLEVEL=0")
                        except ssl.SSLError:
                            pass
                        context.minimum_version = version
                        context.maximum_version = version
                        context.set_alpn_protocols(["h2", "http/1.1"])
                        try:
                            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                                with context.wrap_socket(raw, server_hostname="localhost") as tls:
                                    return "ok " + tls.version() + " " + str(tls.selected_alpn_protocol())
                        except (ssl.SSLError, OSError) as error:
                            return "refused"
                    for version in (ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1, ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
                        print(version.name, attempt(version))
                    """
                let result = try await runTool("/usr/bin/python3", ["-c", script, "\(port)"])
                #expect(result.output.contains("TLSv1 refused"), "\(result.output)")
                #expect(result.output.contains("TLSv1_1 refused"), "\(result.output)")
                #expect(result.output.contains("TLSv1_2 ok TLSv1.2 http/1.1"), "\(result.output)")
                #expect(result.output.contains("TLSv1_3 ok TLSv1.3 http/1.1"), "\(result.output)")
                // openssl's own client, forced to TLS 1.1 (and allowed weak settings): refused too.
                let old = try await runTool("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_1",
                                                                 "-cipher", "DEFAULT@SECLEVEL=0"])
                #expect(old.status != 0 && old.output.contains("alert protocol version"), "\(old.output)")
                #expect(await eventually { server.openConnections == 1 })   // only the first client remains
            }
        }
    }

    @Test func plainHTTPOnTheHTTPSPortGetsA400NamingTheHTTPSAddress() async throws {
        try await overTLS {
            try await withServer(echoRouter()) { server, port in
                let plain = try await Wire.$current.withValue(.plain) { try await RawHTTPClient.connect(port: port) }
                try await plain.send("GET /hello/x HTTP/1.1\r\nHost: panel.example:\(port)\r\n\r\n")
                let answer = try await plain.readResponse()
                #expect(answer.status == 400)
                #expect(answer.text.contains("https://panel.example:\(port)/"))
                #expect(await plain.readsEOF())
                // A Host that could carry markup is not echoed.
                let hostile = try await Wire.$current.withValue(.plain) { try await RawHTTPClient.connect(port: port) }
                try await hostile.send("GET / HTTP/1.1\r\nHost: <script>x</script>\r\n\r\n")
                let refused = try await hostile.readResponse()
                #expect(refused.status == 400)
                #expect(!refused.text.contains("<script>"))
                #expect(refused.text.contains("https://localhost:\(port)/"))
                // The port still speaks TLS.
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send("GET /hello/y HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().text == "hello y")
                #expect(await eventually { server.openConnections == 1 })
            }
        }
    }

    @Test func slowAndSilentHandshakesAreCutOffAtTheDeadlineWhileOthersAreServed() async throws {
        try await overTLS {
            try await withServer(echoRouter(), limits: shortDeadlines()) { server, port in
                let clock = ContinuousClock()
                let started = clock.now
                // Says nothing at all; sends half a ClientHello; sends a byte now and then.
                let silent = try await Wire.$current.withValue(.plain) { try await RawHTTPClient.connect(port: port) }
                let truncated = try await Wire.$current.withValue(.plain) { try await RawHTTPClient.connect(port: port) }
                try await truncated.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03])
                let dribbling = try await Wire.$current.withValue(.plain) { try await RawHTTPClient.connect(port: port) }
                let dribble = Task {
                    for byte: UInt8 in [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00] {
                        try? await dribbling.send([byte])
                        try? await Task.sleep(for: .milliseconds(150))
                    }
                }
                // Meanwhile a normal client is served, repeatedly.
                for i in 0..<5 {
                    let client = try await RawHTTPClient.connect(port: port)
                    try await client.send("GET /hello/\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try await client.readResponse().text == "hello \(i)")
                }
                #expect(await silent.readsEOF())
                #expect(await truncated.readsEOF())
                #expect(await dribbling.readsEOF())
                dribble.cancel()
                // The deadline is 400 ms; the machine may be slow, but not this slow.
                #expect(clock.now - started < .seconds(5))
                #expect(await eventually { server.openConnections == 0 })
            }
        }
    }

    @Test func garbageInsteadOfAClientHelloIsClosedAndTheServerStaysUp() async throws {
        try await overTLS {
            // A short record header waits for the rest: the handshake deadline ends it.
            try await withServer(echoRouter(), limits: shortDeadlines()) { server, port in
                var random = SeededRandom(seed: 11)
                for length in [1, 5, 300, 20_000] {
                    let garbage = try await Wire.$current.withValue(.plain) { try await RawHTTPClient.connect(port: port) }
                    var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                    bytes[0] = 0x16   // looks like a handshake record, is not one
                    try? await garbage.send(bytes)
                    #expect(await garbage.readsEOFOrReset())
                }
                // A binary first byte that is neither TLS nor a letter.
                let binary = try await Wire.$current.withValue(.plain) { try await RawHTTPClient.connect(port: port) }
                try? await binary.send([0x00, 0x01, 0x02, 0x03, 0x04, 0x05])
                #expect(await binary.readsEOFOrReset())
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send("GET /hello/z HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().text == "hello z")
                #expect(await eventually { server.openConnections == 1 })
            }
        }
    }

    @Test func aClientThatDoesNotTrustTheCertificateFailsAndTheServerStaysUp() async throws {
        try await overTLS {
            try await withServer(echoRouter()) { server, port in
                let stranger = try TLSContext.client(systemTrust: true)
                await #expect(throws: (any Error).self) { try await RawHTTPClient.connectTLS(port: port, context: stranger) }
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send("GET /hello/w HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().text == "hello w")
                #expect(await eventually { server.openConnections == 1 })
            }
        }
    }
}

extension RawHTTPClient {
    /// The server ended the connection (EOF, an alert then EOF, or a reset).
    func readsEOFOrReset() async -> Bool {
        (try? await offPool {
            var byte = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(self.fd, &byte, byte.count, 0)
                if n == 0 { return true }
                if n < 0 { return errno == ECONNRESET }
            }
        }) ?? false
    }
}

/// The plain-HTTP 400 page on an HTTPS port links only to the server's own names.
@Suite struct PlainHTTPRefusalTests {
    static func page(host: String, hosts: PlainHTTPHosts?) -> String {
        let head = Array("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)
        return String(decoding: PlainHTTPRefusal.response(requestHead: head, localPort: 8443, hosts: hosts), as: UTF8.self)
    }

    @Test func onlyAllowedHostsAreNamed() {
        let hosts = PlainHTTPHosts(fallback: "console.lan") { host, port in
            port == 8443 && ["console.lan:8443", "192.168.0.9:8443"].contains(host)
        }
        #expect(Self.page(host: "192.168.0.9:8443", hosts: hosts).contains("https://192.168.0.9:8443/"))
        let foreign = Self.page(host: "evil.example:8443", hosts: hosts)
        #expect(foreign.hasPrefix("HTTP/1.1 400"))
        #expect(!foreign.contains("evil.example"))
        #expect(foreign.contains("https://console.lan:8443/"))
        #expect(!Self.page(host: "<script>", hosts: hosts).contains("<script>"))
        // Without an allow-list (a bare server) a plausible name is still echoed, as before.
        #expect(Self.page(host: "box.example:8443", hosts: nil).contains("https://box.example:8443/"))
    }
}
