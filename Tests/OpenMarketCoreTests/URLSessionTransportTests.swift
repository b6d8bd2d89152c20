import Foundation
import Testing
import TestSupport
@testable import OpenMarketCore

/// The default transport over real loopback sockets, against the test kit's stub API: it keeps
/// each request's exact bytes and answers with canned ones.
@Suite(.awaitsTeardown) struct URLSessionTransportTests {
    /// Reads one request, answers `answer`, closes.
    static func answering(_ answer: Data) throws -> StubAPI {
        try StubAPI(faults: { connection in
            guard connection.readRequest() != nil else { return }
            connection.write([UInt8](answer))
        })
    }

    @Test func sendsTheRequestAndReadsTheAnswer() async throws {
        let answer = Data("HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nX-Test: yes\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8)
        try await withServer({ try Self.answering(answer) }) { server in
            let body = Data(#"{"secret":"abc"}"#.utf8)
            let response = try await URLSessionTransport().send(TransportRequest(
                method: "PATCH", url: server.url.appendingPathComponent("api/products/7"),
                headers: [HeaderField(name: "identifier", value: "vendor-id"), HeaderField(name: "Content-Type", value: "application/json")],
                body: body, timeout: 30))
            #expect(response.status == 201)
            #expect(response.body == Data("hello".utf8))
            #expect(response.headers.value(for: "x-test") == "yes")
            let raw = String(decoding: try #require(server.received.first).raw, as: UTF8.self)
            #expect(raw.hasPrefix("PATCH /api/products/7 HTTP/1.1\r\n"))
            #expect(raw.lowercased().contains("\r\nidentifier: vendor-id\r\n"))
            #expect(raw.lowercased().contains("\r\ncontent-type: application/json\r\n"))
            #expect(raw.hasSuffix("\r\n\r\n" + #"{"secret":"abc"}"#))
        }
    }

    @Test func theClientDecodesAnAnswerOverTheWire() async throws {
        let json = try FixtureFiles.data("v2a-list-page.json")
        let answer = Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(json.count)\r\nConnection: close\r\n\r\n".utf8) + json
        try await withServer({ try Self.answering(answer) }) { server in
            let client = OpenMarketClient(configuration: ClientConfiguration(
                baseURL: server.url, identifier: "id-1", secret: "s-1", timeout: 30))
            let page = try await client.listProducts(page: 1, itemsPerPage: 15, search: "머그 컵")
            #expect(page.totalCount == 1387)
            let raw = String(decoding: try #require(server.received.first).raw, as: UTF8.self)
            #expect(raw.hasPrefix("GET /api/products?page_no=1&items_per_page=15&search_value=%EB%A8%B8%EA%B7%B8%20%EC%BB%B5 HTTP/1.1\r\n"))
        }
    }

    @Test func aRefusedConnectionIsUnreachable() async throws {
        let client = OpenMarketClient(configuration: ClientConfiguration(
            baseURL: try StubAPI.closedPort(), identifier: "id-1", secret: "s-1", timeout: 30))
        await #expect(throws: OpenMarketError.unreachable(reason: "connection refused")) {
            try await client.product(id: 1)
        }
    }

    /// The server reads the request but never answers.
    @Test func anAPIThatNeverAnswersTimesOut() async throws {
        try await withServer({ try StubAPI(faults: { connection in
            guard connection.readRequest() != nil else { return }
            _ = connection.waitForPeer(seconds: 30)
        }) }) { server in
            let client = OpenMarketClient(configuration: ClientConfiguration(
                baseURL: server.url, identifier: "id-1", secret: "s-1", timeout: 1))
            await #expect(throws: OpenMarketError.timeout) {
                try await client.product(id: 1)
            }
            #expect(await eventually { server.requests == 1 })
        }
    }
}
