import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A panel killed with SIGKILL cannot clean up; the next start must. Real processes, real files:
/// the `openmarket-admin` executable with its embedded sandbox and a data folder of its own.
@Suite(.awaitsTeardown) struct CrashHygieneTests {
    /// Every regular file under `folder`, relative to it.
    static func files(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let name = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                found.append(name)
            }
        }
        return found.sorted()
    }

    @Test func killDuringTenMiBUploadThenRestartLeavesNothing() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("crash-hygiene-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let uploads = data.appendingPathComponent("uploads")
        let first = try await offPool { try ExecutableTests.start(data: data) }
        let browser = TestBrowser(port: first.port)
        let form = try await browser.get("/products/new")
        let token = try #require(form.inputValue("csrf_token"))

        // A form that comes back with an error keeps its image staged on disk.
        let refused = try await browser.postMultipart("/products", fields: [("csrf_token", token), ("name", "")],
                                                      files: [.init(filename: "kept.png", type: "image/png", data: TestImages.png())])
        #expect(refused.text.contains("data-staged-images"))
        #expect(Self.files(under: uploads).contains { $0.contains("/staging/") })

        // A 10 MiB upload, cut off by SIGKILL once the panel has spooled part of it to disk.
        let boundary = "----crash-test"
        let fileSize = 10 << 20
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(token)\r\n"
        head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"big.png\"\r\nContent-Type: image/png\r\n\r\n"
        let tail = "\r\n--\(boundary)--\r\n"
        let cookie = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let requestHead = "POST /products HTTP/1.1\r\nHost: 127.0.0.1:\(first.port)\r\nOrigin: http://127.0.0.1:\(first.port)\r\n"
            + "Cookie: \(cookie)\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
            + "Content-Length: \(head.utf8.count + fileSize + tail.utf8.count)\r\n\r\n"
        let sent = Array(requestHead.utf8) + Array(head.utf8) + Array(TestImages.largePNG(size: 6 << 20))
        let port = first.port
        // Part of the request, on a connection left open until the panel is killed.
        let connection = try await RawHTTPClient.connect(port: port, timeoutSeconds: 30)
        try await connection.send(sent)
        let spooling = uploads
        let spooled = await eventually(seconds: 60) {
            Self.files(under: spooling).contains { name in
                name.contains("/spool/") && ((try? FileManager.default.attributesOfItem(
                    atPath: spooling.appendingPathComponent(name).path)[.size] as? Int) ?? 0) >= 3 << 20
            }
        }
        try #require(spooled, "a spooled upload of 3 MiB or more")
        first.child.signal(SIGKILL)
        _ = try await offPool { first.child.wait() }
        withExtendedLifetime(connection) {}   // open until the kill: the upload was cut off, not ended
        let left = Self.files(under: uploads)
        #expect(left.contains { $0.contains("/spool/httpserver-upload-") }, "the killed panel left its spool file: \(left)")
        #expect(left.contains { $0.contains("/staging/") }, "and its staged image: \(left)")
        let deadFolders = try FileManager.default.contentsOfDirectory(atPath: uploads.path).filter { !$0.hasSuffix(".lock") }

        // The next start sweeps all of it; only the new process's own (empty) folders and locks exist.
        let second = try await offPool { try ExecutableTests.start(data: data) }
        let now = Self.files(under: uploads)
        #expect(now.allSatisfy { $0.hasSuffix(".lock") && !$0.contains("/") }, "left after restart: \(now)")
        #expect(now.count == 2, "one lock each for the panel and its sandbox: \(now)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: uploads.path)
        #expect(Set(folders).isDisjoint(with: deadFolders), "the dead process's folders are gone: \(folders)")
        #expect(try await ExecutableTests.stop(second.child) == 0)
        // A clean shutdown removes the process's own folders too.
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.path).isEmpty)
    }
}
