import Foundation
import HTTPServer
import Testing
import OpenMarketCore
import TestSupport
import OpenMarketSandbox
#if canImport(Glibc)
import Glibc
#endif
@testable import AdminPanel

/// The panel against a real HTTPS API: the sandbox behind a TLS listener with a self-signed
/// certificate, trusted with `--api-ca` (or not). Everything goes through the panel's own client.
@Suite(.awaitsTeardown) struct HTTPSUpstreamTests {
    /// A panel whose API is the sandbox behind TLS (`certificate` trusted unless `trusted` is false).
    static func start(certificate: SelfSignedTestCertificate? = nil, trusted: Bool = true,
                      timeout: TimeInterval = 60) async throws -> (PanelHarness, StubAPI) {
        let certificate = try certificate ?? SelfSignedTestCertificate.make()
        let front = FrontBox()
        let harness = try await PanelHarness.start(.init(live: true, timeout: timeout, frontOfSandbox: { sandbox in
            let upstream = try StubAPI.proxying(to: sandbox, certificate: certificate)
            front.upstream = upstream
            return upstream.url
        }, apiCertificateFile: trusted ? certificate.certificateFile : nil))
        let upstream = try #require(front.upstream)
        Teardown.add {
            await harness.stop()
            await upstream.stop()
            certificate.remove()
        }
        return (harness, upstream)
    }

    @Test func listDetailImagesRegisterEditAndDeleteOverTLS() async throws {
        let (harness, upstream) = try await Self.start()
        let product = try await harness.makeProduct(name: "Sold over TLS", images: 2)

        let list = try await harness.browser.get("/products")
        #expect(list.status == 200)
        #expect(list.text.contains("data-product-id=\"\(product.id)\""))
        #expect(list.text.contains("Sold over TLS"))
        #expect(upstream.requests > 0)

        // Images: the API's (rewritten) https:// URLs, fetched through /media over TLS.
        let detail = try await harness.browser.get("/products/\(product.id)")
        #expect(detail.status == 200)
        let mediaPath = try #require(detail.text.firstMatch(of: /src="(\/media\/[^"]+)"/).map { String($0.1) })
        let before = upstream.requests
        let image = try await harness.browser.get(mediaPath.replacingOccurrences(of: "&amp;", with: "&"))
        #expect(image.status == 200)
        #expect(ImageFormat.detect(image.body) == .png)
        #expect(upstream.requests == before + 1)

        let token = try await harness.csrfToken(from: "/products/new")
        let registered = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token, name: "Registered over TLS"),
                                                                 files: [.init(filename: "one.png", type: "image/png", data: TestImages.png(seed: 1)),
                                                                         .init(filename: "two.png", type: "image/png", data: TestImages.png(seed: 2))])
        #expect(registered.status == 303)
        let id = try #require(registered.header("Location").flatMap { Int($0.dropFirst("/products/".count)) })
        let created = try await harness.api.product(id: id)
        #expect(created.name == "Registered over TLS")
        #expect(created.images.count == 2)

        let form = try await harness.browser.get("/products/\(id)/edit")
        #expect(form.status == 200)
        let saved = try await harness.browser.post("/products/\(id)/edit",
                                                   form: EditRouteTests.editFields(from: form, overriding: ["name": "Edited over TLS",
                                                                                                           "description": "A handmade ceramic mug, 350 ml."]))
        #expect(saved.status == 303)
        #expect(try await harness.api.product(id: id).name == "Edited over TLS")

        let deleteToken = try await harness.csrfToken(from: "/products/\(id)")
        let deleted = try await harness.browser.post("/products/\(id)/delete", form: [("csrf_token", deleteToken), ("password", harness.demoSecret)])
        #expect(deleted.status == 303)
        await #expect(throws: OpenMarketError.self) { _ = try await harness.api.product(id: id) }
    }

    /// 301–308 from the API (and from a media origin) are a 502 naming the status and the
    /// redirect; the address in `Location` is never asked, so the vendor's credentials stay home.
    @Test func redirectsAreNotFollowed() async throws {
        let elsewhere = RequestCounter()
        let other = try StubAPI { _ in
            elsewhere.increment()
            return .text("[]")
        }
        let certificate = try SelfSignedTestCertificate.make()
        let status = PortBox()
        let redirecting = try StubAPI(tls: certificate) { request in
            HTTPResponse(status: status.value, headers: HTTPHeaders([("Location", "\(other.url.absoluteString)/stolen\(request.target)")]))
        }
        Teardown.add {
            await redirecting.stop()
            await other.stop()
            certificate.remove()
        }
        let harness = try await PanelHarness.start(.init(live: true, api: redirecting.url, timeout: 20, mediaOrigins: [redirecting.url],
                                                         apiCertificateFile: certificate.certificateFile))
        Teardown.add { await harness.stop() }
        for code in [301, 302, 303, 307, 308] {
            status.value = code
            let asked = redirecting.requests
            let list = try await harness.browser.get("/products?q=\(code)")
            #expect(list.status == 502, "\(code)")
            #expect(list.text.contains("it answered HTTP \(code), trying to redirect the panel to \(other.url.absoluteString)"), "\(code)")
            #expect(list.text.contains("redirects are not followed, so nothing was sent there"), "\(code)")
            #expect(list.text.contains("The store tried to send the panel elsewhere"), "\(code)")
            #expect(list.text.contains("The Open Market API answered with a redirect (HTTP \(code))."), "\(code)")
            #expect(redirecting.requests > asked, "\(code)")

            let token = try await harness.csrfToken(from: "/products/new")
            let submitted = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token, name: "Kept \(code)"),
                                                                   files: [.init(filename: "kept.png", type: "image/png", data: TestImages.png())])
            #expect(submitted.status == 502, "\(code)")
            #expect(submitted.inputValue("name") == "Kept \(code)")
            for text in [list.text, submitted.text] {
                #expect(!text.contains(harness.demoSecret))
                #expect(!text.contains(harness.demoIdentifier))
            }

            let image = try await harness.browser.get("/media/_o1/bucket/\(code).png")
            #expect(image.status == 502, "\(code)")
        }
        #expect(elsewhere.value == 0)
    }

    @Test func aSelfSignedAPIWithoutAPICAIsA502NamingIt() async throws {
        let (harness, upstream) = try await Self.start(trusted: false)
        let list = try await harness.browser.get("/products")
        #expect(list.status == 502)
        #expect(list.text.contains("the server&#39;s TLS certificate was refused: self-signed certificate"))
        #expect(list.text.contains("The store’s certificate is not trusted"))
        #expect(list.text.contains("--api-ca FILE"))
        let korean = try await harness.browser.get("/products?lang=ko")
        #expect(korean.status == 502)
        #expect(korean.text.contains("오픈마켓 인증서를 신뢰할 수 없습니다"))
        #expect(upstream.requests == 0)
        // The panel stays up and says the API is not reachable.
        let health = try await harness.browser.get("/healthz")
        #expect(health.status == 200)
        #expect(health.text.contains("\"api_reachable\":false"))
    }

    @Test(arguments: [("another name", "IP address mismatch"), ("expired", "certificate has expired")])
    func aCertificateForAnotherNameOrExpiredIsA502NamingIt(kind: String, reason: String) async throws {
        let certificate = kind == "expired" ? try SelfSignedTestCertificate.make(expired: true)
                                            : try SelfSignedTestCertificate.make(names: ["api.example.com"])
        let (harness, upstream) = try await Self.start(certificate: certificate)
        let list = try await harness.browser.get("/products")
        #expect(list.status == 502)
        #expect(list.text.contains("TLS certificate was refused: \(reason)"))
        #expect(upstream.requests == 0)
        #expect(try await harness.browser.get("/healthz").status == 200)
    }

    /// 30 MiB from an HTTPS API, declared or streamed: a 502 well within the timeout, and the
    /// panel serves the next page normally.
    @Test func anAnswerOverTheCapIsA502WithinTheTimeout() async throws {
        let certificate = try SelfSignedTestCertificate.make()
        let declared = PortBox()   // 0: streamed (no length given), 1: declared
        let huge = try StubAPI(tls: certificate) { _ in
            if declared.value == 1 {
                return HTTPResponse(body: .data(Data(repeating: 0x5B, count: 30 << 20)))
            }
            return HTTPResponse(body: .stream(AsyncThrowingStream { continuation in
                let megabyte = Data(repeating: 0x5B, count: 1 << 20)
                for _ in 0..<30 { continuation.yield(megabyte) }
                continuation.finish()
            }))
        }
        Teardown.add {
            await huge.stop()
            certificate.remove()
        }
        let timeout: TimeInterval = 20
        let harness = try await PanelHarness.start(.init(live: true, api: huge.url, timeout: timeout, apiCertificateFile: certificate.certificateFile))
        Teardown.add { await harness.stop() }
        for (mode, query) in ["streamed", "declared"].enumerated() {
            declared.value = mode
            let started = ContinuousClock.now
            let list = try await harness.browser.get("/products?q=\(query)")
            #expect(list.status == 502, "\(query)")
            #expect(list.text.contains("larger than 8 MiB"), "\(query)")
            #expect(ContinuousClock.now - started < .seconds(timeout), "\(query)")
        }
        #expect(try await harness.browser.get("/healthz").status == 200)
    }
}

/// The TLS listener made inside `PanelHarness.start`, handed back to the test.
final class FrontBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: StubAPI?
    var upstream: StubAPI? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// `openmarket-admin --api https://… --api-ca FILE` as a seller starts it against a self-signed
/// test API; a file without a certificate stops the start with one line.
@Suite(.awaitsTeardown) struct HTTPSUpstreamExecutableTests {
    @Test func theExecutableTrustsAPICAAndRefusesAFileWithoutACertificate() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("https-upstream-exe-\(UUID().uuidString)")
        var sandboxConfiguration = SandboxConfiguration(dataDirectory: data.appendingPathComponent("api"))
        sandboxConfiguration.port = 0
        sandboxConfiguration.logRequests = false
        let sandbox = try Sandbox(configuration: sandboxConfiguration)
        _ = try sandbox.start()
        let upstream = try StubAPI.proxying(to: sandbox.baseURL)
        Teardown.add {
            await upstream.stop()
            upstream.certificate?.remove()
            await sandbox.shutdown()
            try? FileManager.default.removeItem(at: data)
        }
        let vendor = sandbox.demoVendor
        let environment = ["OPENMARKET_IDENTIFIER": vendor.identifier, "OPENMARKET_SECRET": vendor.secret,
                           "OPENMARKET_API_CA": try #require(upstream.certificate).certificateFile]
        let panel = try await offPool {
            try ExecutableTests.start(data: data.appendingPathComponent("panel"),
                                      extra: ["--api", upstream.url.absoluteString, "--vendor-id", "\(vendor.id)"],
                                      environment: environment)
        }
        Teardown.add { panel.child.signal(SIGKILL) }
        let list = try await TestBrowser(port: panel.port).get("/products")
        #expect(list.status == 200)
        #expect(list.text.contains("data-view=\"list\""))
        #expect(upstream.requests > 0)

        let notACertificate = data.appendingPathComponent("not-a-certificate.pem")
        try Data("hello\n".utf8).write(to: notACertificate)
        let refused = try await offPool {
            try ChildProcess.run(try builtProduct("openmarket-admin"),
                                 ["--port", "0", "--data", data.appendingPathComponent("panel2").path,
                                  "--api", upstream.url.absoluteString, "--vendor-id", "\(vendor.id)", "--api-ca", notACertificate.path],
                                 environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        }
        #expect(refused.termination.status == 1)
        #expect(refused.error.hasPrefix("openmarket-admin: the panel could not start: --api-ca: cannot load trusted certificates from \(notACertificate.path)"))
        #expect(refused.error.filter { $0 == "\n" }.count == 1)
    }
}

@Suite struct UpstreamRefusalTests {
    @Test func reasonsAreReadBackAndOthersAreNot() {
        #expect(UpstreamRefusal.of(UpstreamRefusal.redirectReason(status: 308, target: "https://elsewhere.example")) == .redirect(status: 308))
        #expect(UpstreamRefusal.of(UpstreamRefusal.redirectReason(status: 301, target: nil)) == .redirect(status: 301))
        #expect(UpstreamRefusal.of("connection failed: the server's TLS certificate was refused: hostname mismatch") == .certificate)
        #expect(UpstreamRefusal.of("connection failed: Connection refused") == nil)
        #expect(UpstreamRefusal.of("it answered HTTP 3") == nil)
    }

    /// Only the origin of `Location` is named; 304 is no redirect.
    @Test func theRedirectReasonNamesTheOriginOnly() throws {
        let refusal = try #require(PooledTransport.redirectRefusal(status: 307, headers: [("Location", "https://evil.example:8443/steal?token=abc")]))
        #expect(refusal == .unreachable(reason: "it answered HTTP 307, trying to redirect the panel to https://evil.example:8443; "
                                        + "redirects are not followed, so nothing was sent there"))
        #expect(PooledTransport.redirectRefusal(status: 304, headers: []) == nil)
        #expect(PooledTransport.redirectRefusal(status: 200, headers: [("Location", "/x")]) == nil)
    }
}
