import Foundation
import Testing
@testable import HTTPServer

@Suite struct ScratchFolderTests {
    private func parent() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("scratch-test-\(UUID().uuidString)")
    }

    @Test func claimSweepsFoldersOfDeadOwnersButNotLiveOnes() throws {
        let parent = parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let live = try ScratchFolder.claim(in: parent)
        let spool = try live.subfolder("spool")
        _ = FileManager.default.createFile(atPath: spool.appendingPathComponent("upload").path, contents: Data("x".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: live.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)

        // What a killed process leaves: its folder and a lock file nobody holds; and a folder
        // whose lock file was never made.
        let dead = parent.appendingPathComponent("123-dead")
        try FileManager.default.createDirectory(at: dead.appendingPathComponent("staging"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dead.appendingPathComponent("staging/a.png").path, contents: Data(count: 10))
        _ = FileManager.default.createFile(atPath: dead.path + ".lock", contents: nil)
        let lockless = parent.appendingPathComponent("456-lockless")
        try FileManager.default.createDirectory(at: lockless, withIntermediateDirectories: true)

        let next = try ScratchFolder.claim(in: parent)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(!FileManager.default.fileExists(atPath: dead.path + ".lock"))
        #expect(!FileManager.default.fileExists(atPath: lockless.path))
        // The live folder (its lock is held) keeps its files.
        #expect(FileManager.default.fileExists(atPath: spool.appendingPathComponent("upload").path))
        #expect(next.url != live.url)

        live.remove()
        next.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    @Test func anUnwritableParentIsAStartupErrorWithThePath() {
        #expect {
            _ = try ScratchFolder.claim(in: URL(fileURLWithPath: "/proc/no-such/uploads"))
        } throws: { error in
            "\(error)".contains("/proc/no-such/uploads")
        }
    }

    @Test func spooledPartsGoToTheGivenFolder() async throws {
        let parent = parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = try ScratchFolder.claim(in: parent)
        let spool = try folder.subfolder("spool")
        var builder = MultipartBuilder()
        builder.file("images", filename: "big.bin", Array(repeating: 7, count: 5000))
        builder.close()
        let body = RequestBody(streaming: ())
        body.append(Data(builder.body))
        body.finish()
        let request = try HTTPRequest(method: "POST", target: "/", headers: HTTPHeaders([("Content-Type", builder.contentType)]), body: body)
        let form = try await request.multipartForm(limits: MultipartLimits(spoolThreshold: 1000), spoolDirectory: spool)
        #expect(try form.files[0].data().count == 5000)
        let spooled = try FileManager.default.contentsOfDirectory(atPath: spool.path)
        #expect(spooled.count == 1 && spooled[0].hasPrefix("httpserver-upload-"))
        body.removeSpoolFiles()
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
        folder.remove()
    }
}
