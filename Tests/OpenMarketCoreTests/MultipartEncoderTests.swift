import Foundation
import Testing
@testable import OpenMarketCore

@Suite struct MultipartEncoderTests {
    private let encoder = MultipartEncoder(boundary: "XyZ")

    @Test func theWholeBodyByteForByte() {
        let params = Data(#"{"name":"Mug"}"#.utf8)
        let body = encoder.encode(params: params, images: [
            ImageUpload(filename: "a.png", data: SampleImage.png),
            ImageUpload(filename: "b.jpg", data: SampleImage.jpeg),
        ])
        var expected = Data()
        expected += Data("--XyZ\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n".utf8)
        expected += params
        expected += Data("\r\n--XyZ\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
        expected += SampleImage.png
        expected += Data("\r\n--XyZ\r\nContent-Disposition: form-data; name=\"images\"; filename=\"b.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        expected += SampleImage.jpeg
        expected += Data("\r\n--XyZ--\r\n".utf8)
        #expect(body == expected)
        #expect(encoder.contentType == "multipart/form-data; boundary=XyZ")
    }

    @Test func thePartTypeIsTheRealFormatWhateverTheName() {
        let body = encoder.encode(params: Data("{}".utf8), images: [
            ImageUpload(filename: "photo.png", data: SampleImage.gif),
            ImageUpload(filename: "x.webp", data: SampleImage.webp),
            ImageUpload(filename: "notes.txt", data: Data("hello".utf8)),
        ])
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("filename=\"photo.png\"\r\nContent-Type: image/gif\r\n\r\nGIF89a"))
        #expect(text.contains("filename=\"x.webp\"\r\nContent-Type: image/webp\r\n\r\nRIFF"))
        #expect(text.contains("filename=\"notes.txt\"\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n"))
    }

    @Test func noImagesMeansOnlyTheParamsPart() {
        let body = encoder.encode(params: Data("{}".utf8), images: [])
        #expect(String(decoding: body, as: UTF8.self)
                == "--XyZ\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n{}\r\n--XyZ--\r\n")
    }

    @Test(arguments: [
        ("plain-name_1.png", #"filename="plain-name_1.png""#),
        (#"say "cheese".png"#, #"filename="say %22cheese%22.png""#),
        ("two\r\nlines.png", #"filename="two%0D%0Alines.png""#),
        (#"C:\photos\a.png"#, #"filename="C:%5Cphotos%5Ca.png""#),
        ("tab\there.png", #"filename="tab%09here.png""#),
        ("50% off.png", #"filename="50% off.png""#),
        ("사진.png", #"filename="%EC%82%AC%EC%A7%84.png"; filename*=UTF-8''%EC%82%AC%EC%A7%84.png"#),
        ("café \"1\".jpg", #"filename="caf%C3%A9 %221%22.jpg"; filename*=UTF-8''caf%C3%A9%20%221%22.jpg"#),
    ])
    func filenamesAreEncodedSafely(filename: String, expected: String) {
        #expect(MultipartEncoder.filenameParameters(filename) == expected)
        let body = encoder.encode(params: Data("{}".utf8), images: [ImageUpload(filename: filename, data: SampleImage.png)])
        // The part header stays a single ASCII line whatever the name holds.
        let head = body.split(separator: UInt8(ascii: "\n")).first { $0.starts(with: Data("Content-Disposition: form-data; name=\"images\"".utf8)) }
        #expect(head.map { Data($0) } == Data("Content-Disposition: form-data; name=\"images\"; \(expected)\r".utf8))
        #expect(head?.allSatisfy { $0 < 0x80 } == true)
    }

    @Test func anEmptyFilenameGetsOneFromTheFormat() {
        let text = String(decoding: encoder.encode(params: Data("{}".utf8), images: [
            ImageUpload(filename: "a.png", data: SampleImage.png), ImageUpload(filename: "", data: SampleImage.jpeg),
        ]), as: UTF8.self)
        #expect(text.contains("filename=\"image-2.jpg\"\r\nContent-Type: image/jpeg"))
    }

    @Test func randomBoundariesAreValidAndDiffer() {
        let boundaries = (0..<50).map { _ in MultipartEncoder.randomBoundary() }
        #expect(Set(boundaries).count == 50)
        for boundary in boundaries {
            #expect(boundary.count <= 70)
            #expect(boundary.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        }
        #expect(MultipartEncoder().boundary != MultipartEncoder().boundary)
    }

    @Test func binaryImageBytesArePassedThroughUntouched() {
        let bytes = SampleImage.png + Data((0...255).map(UInt8.init)) + Data("\r\n--XyZ".utf8.dropLast(3))
        let body = encoder.encode(params: Data("{}".utf8), images: [ImageUpload(filename: "a.png", data: bytes)])
        #expect(body.range(of: bytes) != nil)
        let framing = encoder.encode(params: Data("{}".utf8), images: [ImageUpload(filename: "a.png", data: SampleImage.png)])
        #expect(body.count == framing.count - SampleImage.png.count + bytes.count)
    }
}
