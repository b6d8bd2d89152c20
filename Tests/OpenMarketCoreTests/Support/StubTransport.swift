import Foundation
@testable import OpenMarketCore

/// A transport that records every request and answers from a script, in order.
actor StubTransport: HTTPTransport {
    enum Reply: Sendable {
        case response(TransportResponse)
        case failure(any Error)
    }

    private var replies: [Reply]
    private(set) var requests: [TransportRequest] = []

    init(_ replies: [Reply]) {
        self.replies = replies
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        guard !replies.isEmpty else { throw TransportError.unreachable(reason: "the stub has no reply left") }
        switch replies.removeFirst() {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }
}

extension StubTransport.Reply {
    static func json(_ body: String, status: Int = 200) -> Self {
        .response(TransportResponse(status: status, headers: [HeaderField(name: "Content-Type", value: "application/json")],
                                    body: Data(body.utf8)))
    }

    static func json(_ data: Data, status: Int = 200) -> Self {
        .response(TransportResponse(status: status, headers: [HeaderField(name: "Content-Type", value: "application/json")],
                                    body: data))
    }

    static func text(_ body: String, status: Int = 200) -> Self {
        .response(TransportResponse(status: status, headers: [HeaderField(name: "Content-Type", value: "text/plain")],
                                    body: Data(body.utf8)))
    }

    static func empty(status: Int) -> Self {
        .response(TransportResponse(status: status))
    }
}

/// Credentials used by the client tests; every error description is checked not to contain them.
enum TestVendor {
    static let identifier = "7184295e-4aa4-11ed-a200-81a344d1e7bb"
    static let secret = "rwbyQk9Z#Vx"
    static let password = "typed-by-the-seller"

    static func configuration(_ dialect: Dialect, base: String = "http://api.test") -> ClientConfiguration {
        ClientConfiguration(baseURL: URL(string: base)!, dialect: dialect, identifier: identifier, secret: secret)
    }

    static func client(_ dialect: Dialect, base: String = "http://api.test",
                       _ replies: [StubTransport.Reply]) -> (OpenMarketClient, StubTransport) {
        let stub = StubTransport(replies)
        let client = OpenMarketClient(configuration: configuration(dialect, base: base), transport: stub,
                                      boundary: { "TestBoundary42" })
        return (client, stub)
    }
}

/// Tiny images: real magic bytes followed by filler.
enum SampleImage {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46])
    static let gif = Data("GIF89a\u{1}\u{0}".utf8)
    static let webp = Data("RIFF\u{24}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
    static let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)

    static func png(size: Int) -> Data {
        png + Data(repeating: 0xAB, count: size - png.count)
    }
}

/// The UTC date of a day, for expectations.
func utcDay(_ year: Int, _ month: Int, _ day: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: DateComponents(year: year, month: month, day: day))!
}
