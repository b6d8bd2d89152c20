import Foundation
import Testing
@testable import HTTPClient
import TestSupport

/// What the client promises for answers from anywhere (import photos): only `identity` asked for
/// and anything compressed refused, a per-request body limit applied while reading, one deadline
/// for the whole request, framing lies as errors, and a request that connects to the address its
/// caller judged without looking the name up again.
@Suite(.awaitsTeardown) struct HTTPClientBoundsTests {
    static func get(_ port: Int, client: HTTPClient = HTTPClient(), timeout: Duration = .seconds(10), maxBodyBytes: Int? = nil)
        async throws -> (status: Int, headers: [(String, String)], body: Data) {
        try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/p.jpg")!,
                              headers: [("Accept-Encoding", "gzip, br")], timeout: timeout, maxBodyBytes: maxBodyBytes)
    }

    @Test func asksForIdentityOnlyAndRefusesCompressedBodies() async throws {
        try await withServer({ try StubAPI.canned("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\nabcd") }) { stub in
            await #expect(throws: HTTPClientError.encodedBody("gzip")) { _ = try await Self.get(stub.port) }
            let sent = try #require(stub.received.first)
            #expect(sent.headers.filter { $0.name.lowercased() == "accept-encoding" }.map(\.value) == ["identity"])
        }
        try await withServer({ try StubAPI.canned("HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\nContent-Length: 2\r\n\r\nok") }) { stub in
            let answer = try await Self.get(stub.port)
            #expect(answer.body == Data("ok".utf8))
        }
    }

    /// The request's own limit wins over the client's, whatever the framing.
    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 629145600\r\n\r\nxxxx",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n" + String(repeating: "x", count: 2048) + "\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + String(repeating: "x", count: 2048),
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7ffffffffffffff\r\nxxxx",
    ])
    func aRequestsOwnLimitHoldsWhileReading(answer: String) async throws {
        try await withServer({ try StubAPI.canned(answer) }) { stub in
            await #expect(throws: HTTPClientError.bodyTooLarge(limit: 1024)) {
                _ = try await Self.get(stub.port, client: HTTPClient(maxResponseBodyBytes: 64 << 20), maxBodyBytes: 1024)
            }
        }
    }

    /// Lies about the body's length or framing are errors, never a trap or a hang.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nabc", HTTPClientError.malformedResponse),
        ("HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551615\r\n\r\nabc", .malformedResponse),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc", .malformedResponse),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nabc", .malformedResponse),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc\r\n0\r\n\r\n", .incompleteResponse),
        ("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this", .incompleteResponse),
        ("HTTP/1.1 200 OK\r\n" + String(repeating: "X-Filler: yes\r\n", count: 6000), .malformedResponse),
    ])
    func framingLiesAreErrors(answer: String, error: HTTPClientError) async throws {
        try await withServer({ try StubAPI.canned(answer) }) { stub in
            await #expect(throws: error) { _ = try await Self.get(stub.port) }
        }
    }

    /// One byte a while keeps no idle timer happy forever: the deadline covers the whole request.
    @Test func aDrippingAnswerEndsAtTheDeadline() async throws {
        let stub = try StubAPI(faults: { connection in
            guard connection.readRequest() != nil else { return }
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            _ = connection.waitForPeer(seconds: 30, heartbeat: [0x42])
        })
        Teardown.add { await stub.stop() }
        let started = ContinuousClock.now
        await #expect(throws: HTTPClientError.timeout) { _ = try await Self.get(stub.port, timeout: .milliseconds(800)) }
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(700) && took < .seconds(3), "\(took)")
    }

    /// The caller's address is the one connected to: the URL's name is never looked up (it has
    /// no DNS entry here) and still names the host in the request.
    @Test func aJudgedAddressIsConnectedToWithoutAnotherLookup() async throws {
        try await withServer({ try StubAPI.canned("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }) { stub in
            let addresses = await HTTPClient.addresses(of: "127.0.0.1", port: stub.port, timeout: .seconds(5))
            let address = try #require(addresses.first)
            #expect(address.bytes == [127, 0, 0, 1])
            #expect(address.port == stub.port)
            let answer = try await HTTPClient().send(method: "GET", url: URL(string: "http://photos.invalid:\(stub.port)/a.jpg")!,
                                                     connectingTo: address)
            #expect(answer.body == Data("ok".utf8))
            #expect(stub.received.first?.header("Host") == "photos.invalid:\(stub.port)")
        }
    }

    @Test func anAddressLiteralIsAnsweredWithoutALookup() {
        #expect(ClientAddress.literal(host: "127.0.0.1", port: 80).map(\.bytes) == [[127, 0, 0, 1]])
        #expect(ClientAddress.literal(host: "localhost", port: 80).isEmpty)
    }

    @Test func lookupsAnswerEveryAddressAndNothingForUnknownNames() async throws {
        let v6 = await HTTPClient.addresses(of: "::1", port: 80, timeout: .seconds(5))
        #expect(v6.map(\.bytes) == [[UInt8](repeating: 0, count: 15) + [1]])
        #expect(await HTTPClient.addresses(of: "no-such-host.invalid", port: 80, timeout: .seconds(5)).isEmpty)
    }

    /// Lookups past the limit wait for a place instead of starting a thread each, and all finish.
    /// (A name: an address literal needs no lookup and takes no place.)
    @Test func lookupsBeyondTheLimitWaitTheirTurn() async throws {
        let lookups = NameLookups(limit: 2)
        let found = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { await lookups.resolve(host: "localhost", port: 80, deadline: DispatchTime.now().uptimeNanoseconds + 5_000_000_000).isEmpty ? 0 : 1 }
            }
            return await group.reduce(0, +)
        }
        #expect(found == 20)
    }
}
