import Foundation
import Testing
@testable import HTTPServer

/// Builds a multipart body by hand, so tests control every byte.
struct MultipartBuilder {
    var boundary = "----XyZ-boundary"
    var body: [UInt8] = []

    mutating func field(_ name: String, _ value: String) {
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    mutating func file(_ name: String, filename: String, type: String = "application/octet-stream", _ data: [UInt8],
                       disposition: String? = nil) {
        let d = disposition ?? "form-data; name=\"\(name)\"; filename=\"\(filename)\""
        body += Array("--\(boundary)\r\nContent-Disposition: \(d)\r\nContent-Type: \(type)\r\n\r\n".utf8) + data + [13, 10]
    }

    mutating func close() { body += Array("--\(boundary)--\r\n".utf8) }

    var contentType: String { "multipart/form-data; boundary=\"\(boundary)\"" }
}

/// Runs `multipartForm` over a body delivered in `pieceSize`-byte chunks.
func parseMultipart(_ builder: MultipartBuilder, pieceSize: Int = 16, limits: MultipartLimits = MultipartLimits(),
                    contentType: String? = nil) async throws -> (MultipartForm, RequestBody) {
    let body = RequestBody(streaming: ())
    var i = 0
    while i < builder.body.count {
        body.append(Data(builder.body[i..<min(builder.body.count, i + pieceSize)]))
        i += pieceSize
    }
    body.finish()
    let request = try HTTPRequest(method: "POST", target: "/upload",
                                  headers: HTTPHeaders([("Content-Type", contentType ?? builder.contentType)]), body: body)
    return (try await request.multipartForm(limits: limits), body)
}

@Suite struct MultipartTests {
    @Test func fieldsAndFilesIn16BytePieces() async throws {
        var b = MultipartBuilder()
        b.field("name", "Green tea ☕")
        b.field("tags", "a")
        b.field("tags", "b")
        // Binary data full of delimiter look-alikes: CRLF, dashes, a truncated and a misspelled delimiter.
        let tricky = Array("\r\n--\r\n------XyZ-boundar\r\n--".utf8) + [0, 255, 13, 10, 45, 45] + Array("----XyZ-boundarX--".utf8)
        b.file("images", filename: "a.png", type: "image/png", tricky)
        b.file("images", filename: "empty.bin", [])
        b.close()
        for size in [1, 7, 16, 1000] {
            let (form, _) = try await parseMultipart(b, pieceSize: size)
            #expect(form.fields["name"] == "Green tea ☕")
            #expect(form.fields.all("tags") == ["a", "b"])
            #expect(form.files.count == 2)
            let image = try #require(form.files(named: "images").first)
            #expect(image.filename == "a.png" && image.contentType == "image/png")
            #expect(try image.data() == Data(tricky))
            #expect(image.size == tricky.count)
            #expect(form.files[1].size == 0 && form.files[1].filename == "empty.bin")
        }
    }

    @Test func emptyFileInputIsNotAFile() async throws {
        var b = MultipartBuilder()
        b.file("images", filename: "", [])
        b.field("name", "x")
        b.close()
        let (form, _) = try await parseMultipart(b)
        #expect(form.files.isEmpty)
        #expect(form.fields["name"] == "x")
    }

    @Test func extendedFilenameWinsAndPathsAreStripped() async throws {
        var b = MultipartBuilder()
        b.file("f", filename: "", [1], disposition: "form-data; name=\"f\"; filename=\"euro.png\"; filename*=UTF-8''%E2%82%AC%20rates.png")
        b.file("g", filename: "", [2], disposition: "form-data; name=\"g\"; filename=\"C:\\\\fakepath\\\\photo.jpg\"")
        b.file("h", filename: "", [3], disposition: "form-data; name=\"h\"; filename=\"../../etc/passwd\"")
        b.close()
        let (form, _) = try await parseMultipart(b)
        #expect(form.files.map(\.filename) == ["€ rates.png", "photo.jpg", "passwd"])
    }

    @Test func unquotedBoundaryAndPreambleAndEpilogue() async throws {
        var b = MultipartBuilder(boundary: "simple")
        b.body = Array("This is a preamble.\r\n".utf8)
        b.field("a", "1")
        b.close()
        b.body += Array("epilogue ignored".utf8)
        let (form, _) = try await parseMultipart(b, contentType: "multipart/form-data; boundary=simple")
        #expect(form.fields["a"] == "1")
    }

    @Test func missingFinalBoundaryIsRejected() async throws {
        var b = MultipartBuilder()
        b.field("a", "1")
        b.body += Array("--\(b.boundary)\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\nunfinished".utf8)
        await #expect(throws: HTTPError(status: 400, message: "Multipart body ends without its final boundary")) {
            _ = try await parseMultipart(b)
        }
    }

    @Test func malformedPartsAreRejected() async throws {
        var noDisposition = MultipartBuilder()
        noDisposition.body = Array("--\(noDisposition.boundary)\r\nContent-Type: text/plain\r\n\r\nx\r\n--\(noDisposition.boundary)--".utf8)
        await #expect(throws: HTTPError.self) { _ = try await parseMultipart(noDisposition) }
        var badDelimiter = MultipartBuilder()
        badDelimiter.body = Array("--\(badDelimiter.boundary)XX\r\n".utf8)
        await #expect(throws: HTTPError.self) { _ = try await parseMultipart(badDelimiter) }
        let b = MultipartBuilder()
        await #expect(throws: HTTPError(status: 415, message: "Expected a multipart form")) {
            _ = try await parseMultipart(b, contentType: "application/json")
        }
        await #expect(throws: HTTPError.self) { _ = try await parseMultipart(b, contentType: "multipart/form-data") }
    }

    @Test func limitsAreEnforced() async throws {
        var manyParts = MultipartBuilder()
        for i in 0..<5 { manyParts.field("f\(i)", "v") }
        manyParts.close()
        await #expect(throws: HTTPError(status: 413, message: "Too many parts in the form (at most 4)", limit: .parts(max: 4))) {
            _ = try await parseMultipart(manyParts, limits: MultipartLimits(maxParts: 4))
        }
        var bigField = MultipartBuilder()
        bigField.field("text", String(repeating: "x", count: 101))
        bigField.close()
        await #expect(throws: HTTPError(status: 413, message: "Form field \"text\" is too large (at most 100 bytes)", limit: .field(name: "text", maxBytes: 100))) {
            _ = try await parseMultipart(bigField, limits: MultipartLimits(maxFieldBytes: 100))
        }
        var bigFile = MultipartBuilder()
        bigFile.file("f", filename: "x.bin", [UInt8](repeating: 7, count: 2001))
        bigFile.close()
        await #expect(throws: HTTPError(status: 413, message: "File in \"f\" is too large (at most 2000 bytes)", limit: .file(name: "f", maxBytes: 2000))) {
            _ = try await parseMultipart(bigFile, limits: MultipartLimits(maxFileBytes: 2000))
        }
        var bigHeaders = MultipartBuilder()
        bigHeaders.file("f", filename: String(repeating: "n", count: 300), [1])
        bigHeaders.close()
        await #expect(throws: HTTPError(status: 413, message: "Part headers are too large (at most 200 bytes)", limit: .partHeaders(maxBytes: 200))) {
            _ = try await parseMultipart(bigHeaders, limits: MultipartLimits(maxHeaderBytesPerPart: 200))
        }
    }

    @Test func largeFilesAreSpooledPrivatelyAndDeletedAfterTheResponse() async throws {
        var b = MultipartBuilder()
        let payload = (0..<5000).map { UInt8($0 % 251) }
        b.file("f", filename: "big.bin", payload)
        b.close()
        let (form, body) = try await parseMultipart(b, pieceSize: 333, limits: MultipartLimits(spoolThreshold: 1000))
        let file = try #require(form.files.first)
        guard case .spooled(let path) = file.storage else { Issue.record("not spooled"); return }
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try file.data() == Data(payload))
        body.removeSpoolFiles()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func spoolFilesAreDeletedWhenTheHandlerFails() async throws {
        let seen = Locked<String?>(nil)
        var router = Router()
        router.post("/upload") { request in
            let form = try await request.multipartForm(limits: MultipartLimits(spoolThreshold: 10))
            if case .spooled(let path) = form.files[0].storage { seen.withLock { $0 = path } }
            throw HTTPError(status: 422, message: "rejected")
        }
        var b = MultipartBuilder()
        b.file("f", filename: "x.bin", [UInt8](repeating: 1, count: 100))
        b.close()
        let request = try HTTPRequest(method: "POST", target: "/upload",
                                      headers: HTTPHeaders([("Content-Type", b.contentType)]), body: RequestBody(Data(b.body)))
        let response = await router.respond(to: request)
        #expect(response.status == 422)
        let path = try #require(seen.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
