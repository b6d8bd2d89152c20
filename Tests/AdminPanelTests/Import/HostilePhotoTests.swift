import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The import's photo URLs against servers that lie, stall, flood, compress, redirect or present
/// the wrong certificate, through real imports on the real `openmarket-admin` binary. For each:
/// the panel stays up and never answers 500, the hostile row fails with a reason naming what
/// happened, the good row beside it is created, the redirect target is never contacted, and the
/// panel's peak RSS (VmHWM, reset before each case) stays below 400 MiB.
@Suite(.awaitsTeardown) struct HostilePhotoTests {
    /// What the results page says for each case (English; fragments without quotes, which are escaped).
    static func expectedReason(_ behaviour: HostilePhoto) -> String {
        switch behaviour {
        case .good: ""
        case .negativeLength, .giantChunk, .endlessHead: "answer was broken"
        case .lyingChunk, .lyingLength: "closed the connection before the photo was complete"
        case .redirect301, .redirect302, .redirect307, .redirect308: "redirects elsewhere (\(behaviour.redirectStatus!))"
        case .huge, .hugeDeclared: "is larger than 16 MiB"
        case .gzip: "compressed (gzip)"
        case .drip: "did not arrive within 2 seconds"
        }
    }

    struct Measured: CustomStringConvertible {
        var name: String
        var peakMiB: Int
        var crashed: Bool
        var seconds: Double
        var description: String {
            "\(name): \(crashed ? "crashed" : "peak \(peakMiB) MiB"), \(String(format: "%.2f", seconds)) s"
        }
    }

    /// The panel's peak resident memory since the last reset, in KiB.
    static func peakKiB(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }

    /// Resets VmHWM to the current RSS, so each case's peak is its own.
    static func resetPeak(_ pid: pid_t) {
        try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Imports a good row and a hostile one; answers the results page and its path.
    static func importRows(_ browser: TestBrowser, good: String, hostile: String, index: Int) async throws
        -> (page: RawResponse, path: String) {
        let form = try await browser.get("/products/import")
        let token = try #require(form.inputValue("csrf_token"))
        let csv = "name,description,price,images\n"
            + "Good photo \(index),A description long enough,1000,\(good)\n"
            + "Hostile photo \(index),A description long enough,2000,\(hostile)\n"
        let preview = try await browser.postMultipart("/products/import", fields: [("csrf_token", token)],
            files: [.init(name: "file", filename: "products.csv", type: "text/csv", data: Data(csv.utf8))])
        #expect(preview.status == 200)
        let applied = try await browser.post(try ImportRouteTests.applyAction(preview), form: [("csrf_token", token)])
        #expect(applied.status == 303)
        let path = try #require(applied.header("Location"))
        return (try await browser.get(path), path)
    }

    @Test func hostilePhotoServersNeitherCrashNorBloatThePanel() async throws {
        let untouchable = try StubAPI { _ in .text("internal secret") }
        let photo = TestImages.png(seed: 7)
        let plain = try HostilePhotoServer.plain(photo: photo, internalTarget: untouchable.url)
        let certificate = try SelfSignedTestCertificate.make(names: ["127.0.0.1"])
        let otherName = try SelfSignedTestCertificate.make(names: ["photos.example"])
        let secure = try HostilePhotoServer.tls(certificate: certificate, photo: photo, internalTarget: untouchable.url)
        let wrongName = try HostilePhotoServer.tls(certificate: otherName, photo: photo, internalTarget: untouchable.url)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        // Both certificates trusted: the wrong-name server is refused for its name alone.
        let bundle = data.appendingPathComponent("trusted.pem")
        try (try Data(contentsOf: URL(fileURLWithPath: certificate.certificateFile))
             + Data(contentsOf: URL(fileURLWithPath: otherName.certificateFile))).write(to: bundle)
        Teardown.add {
            for server in [untouchable, plain, secure, wrongName] { await server.stop() }
            certificate.remove()
            otherName.remove()
            try? FileManager.default.removeItem(at: data)
        }
        let origins = [plain.url, secure.url, wrongName.url].map(\.absoluteString).joined(separator: ",")
        // OPENMARKET_ADMIN_BIN measures another build (an older one) with the same cases.
        let binary = ProcessInfo.processInfo.environment["OPENMARKET_ADMIN_BIN"]
        @Sendable func start() async throws -> ExecutableTests.Started {
            let started = try await offPool {
                try ExecutableTests.start(data: data.appendingPathComponent("data"),
                                          extra: ["--timeout", "2", "--media-origin", origins, "--api-ca", bundle.path],
                                          binary: binary)
            }
            Teardown.add { _ = try? await ExecutableTests.stop(started.child) }
            return started
        }
        var panel = try await start()

        var cases: [(name: String, good: String, hostile: String, reason: String)] = []
        for behaviour in HostilePhoto.allCases where behaviour != .good {
            cases.append(("http \(behaviour.rawValue)", "\(plain.url)/good.png", "\(plain.url)/\(behaviour.rawValue).png",
                          Self.expectedReason(behaviour)))
        }
        for behaviour in HostilePhoto.tlsCases where behaviour != .good {
            cases.append(("https \(behaviour.rawValue)", "\(secure.url)/good.png", "\(secure.url)/\(behaviour.rawValue).png",
                          Self.expectedReason(behaviour)))
        }
        cases.append(("https wrong-name certificate", "\(secure.url)/good.png", "\(wrongName.url)/good.png",
                      "certificate could not be trusted"))

        var measured: [Measured] = []
        var lastResult: String?
        for (index, item) in cases.enumerated() {
            let pid = panel.child.pid
            Self.resetPeak(pid)
            let started = ContinuousClock.now
            let imported = try? await Self.importRows(TestBrowser(port: panel.port), good: item.good, hostile: item.hostile, index: index)
            let result = imported?.page
            if let imported { lastResult = imported.path }
            let took = ContinuousClock.now - started
            let peak = (try? Self.peakKiB(pid)) ?? 0
            measured.append(Measured(name: item.name, peakMiB: peak >> 10, crashed: panel.child.hasExited,
                                     seconds: Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18))
            if panel.child.hasExited {
                Issue.record("\(item.name): the panel died")
                panel = try await start()   // the other cases still say what they do
                continue
            }
            guard let result else {
                Issue.record("\(item.name): the import did not finish")
                continue
            }
            #expect(result.status == 200, "\(item.name)")
            #expect(result.text.contains("data-import-result=\"2\" data-outcome=\"done\""), "\(item.name): the good row")
            #expect(result.text.contains("data-import-result=\"3\" data-outcome=\"failed\""), "\(item.name): the hostile row")
            #expect(result.text.contains(item.reason), "\(item.name): reason ‘\(item.reason)’ missing")
            #expect(peak < 400 << 10, "\(item.name): peak RSS \(peak >> 10) MiB")
            #expect(took < .seconds(10), "\(item.name): took \(took)")
        }
        let browser = TestBrowser(port: panel.port)
        #expect(untouchable.connections == 0 && untouchable.requests == 0, "the redirect target was contacted")
        #expect(try await browser.get("/products").status == 200)
        let created = try await browser.get("/products?q=Good+photo&per_page=100")
        #expect(created.count(of: "Good photo ") >= cases.count)
        #expect(!created.text.contains("Hostile photo"))
        // The seller reads the reason in Korean too (the last case: the certificate).
        let korean = try await browser.get(try #require(lastResult), headers: [("Accept-Language", "ko")])
        #expect(korean.text.contains("서버의 보안 인증서를 신뢰할 수 없습니다"))
        print("Hostile photo cases (peak RSS of the panel, time of the whole import):\n"
              + measured.map { "  \($0)" }.joined(separator: "\n"))
    }
}
