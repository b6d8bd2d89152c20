import Foundation
import Testing
@testable import OpenMarketCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every answer and failure maps to its typed error, with a description that never leaks a credential.
@Suite struct ClientErrorTests {
    private func failure(_ reply: StubTransport.Reply, dialect: Dialect = .v2a,
                         call: (OpenMarketClient) async throws(OpenMarketError) -> Void) async -> OpenMarketError? {
        let (client, _) = TestVendor.client(dialect, [reply])
        do {
            try await call(client)
            return nil
        } catch {
            return error
        }
    }

    private func detailFailure(_ reply: StubTransport.Reply) async -> OpenMarketError? {
        await failure(reply) { client throws(OpenMarketError) in _ = try await client.product(id: 1) }
    }

    @Test(arguments: [
        (400, #"{"code":400,"message":"the params part is missing"}"#, OpenMarketError.badRequest(message: "the params part is missing")),
        (400, #"{"code":400,"message":"discounted_price must not exceed price"}"#,
         .validation([FieldIssue(field: "discounted_price", message: "discounted_price must not exceed price")])),
        (400, #"{"code":400,"message":"name must be 3 to 100 characters"}"#,
         .validation([FieldIssue(field: "name", message: "name must be 3 to 100 characters")])),
        (400, #"{"code":400,"message":"an image is over 307200 bytes"}"#,
         .validation([FieldIssue(field: "images", message: "an image is over 307200 bytes")])),
        (400, #"{"code":400,"message":"Missing identifier header"}"#, .badRequest(message: "Missing identifier header")),
        (401, #"{"code":401,"message":"unknown vendor"}"#, .unauthorized(message: "unknown vendor")),
        (403, #"{"code":403,"message":"not your product"}"#, .forbidden(message: "not your product")),
        (404, #"{"code":404,"message":"no product 1"}"#, .notFound(message: "no product 1")),
        (413, #"{"code":413,"message":"body too large"}"#, .payloadTooLarge(message: "body too large")),
        (500, #"{"code":500,"message":"database is locked"}"#, .server(status: 500, message: "database is locked")),
        (503, #"{"code":503}"#, .server(status: 503, message: "Service Unavailable")),
        (418, #"{"message":"teapot"}"#, .server(status: 418, message: "teapot")),
        (302, "", .server(status: 302, message: "HTTP status 302")),
    ])
    func jsonErrorBodies(status: Int, body: String, expected: OpenMarketError) async {
        #expect(await detailFailure(.json(body, status: status)) == expected)
    }

    @Test(arguments: [
        (404, "Not Found", OpenMarketError.notFound(message: "Not Found")),
        (401, "", .unauthorized(message: "Unauthorized")),
        (403, "<html><body>Forbidden by proxy</body></html>", .forbidden(message: "Forbidden")),
        (502, "<!DOCTYPE html><h1>502</h1>", .server(status: 502, message: "Bad Gateway")),
        (500, "upstream\nreset", .server(status: 500, message: "upstream reset")),
        (400, "{not json", .badRequest(message: "Bad Request")),
        (413, String(repeating: "x", count: 5000), .payloadTooLarge(message: "Payload Too Large")),
    ])
    func nonJSONErrorBodiesAreMappedByStatus(status: Int, body: String, expected: OpenMarketError) async {
        #expect(await detailFailure(.text(body, status: status)) == expected)
    }

    @Test func aLongJSONMessageIsShortened() async {
        let long = String(repeating: "é", count: 400)
        let error = await detailFailure(.json(#"{"code":500,"message":"\#(long)"}"#, status: 500))
        guard case .server(500, let message) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.count == 300 && message.hasSuffix("…"))
    }

    @Test func errorsOfEachCallAreMapped() async {
        let reply = StubTransport.Reply.json(#"{"code":404,"message":"gone"}"#, status: 404)
        let expected = OpenMarketError.notFound(message: "gone")
        #expect(await failure(reply) { c throws(OpenMarketError) in _ = try await c.listProducts(page: 1, itemsPerPage: 1) } == expected)
        #expect(await failure(reply) { c throws(OpenMarketError) in
            _ = try await c.create(NewProductValidationTests.valid) } == expected)
        #expect(await failure(reply) { c throws(OpenMarketError) in _ = try await c.update(id: 1, changes: .init(stock: 1)) } == expected)
        for dialect in [Dialect.v2a, .v2b] {
            #expect(await failure(reply, dialect: dialect) { c throws(OpenMarketError) in _ = try await c.delete(id: 1, password: "pw-pw") } == expected)
        }
    }

    @Test func aWrongPasswordInTheSecondDeleteStepIsMappedToo() async {
        let (client, stub) = TestVendor.client(.v2a, [.text("product-secret"), .json(#"{"code":400,"message":"wrong product secret"}"#, status: 400)])
        await #expect(throws: OpenMarketError.badRequest(message: "wrong product secret")) {
            try await client.delete(id: 3, password: "pw-pw")
        }
        #expect(await stub.requests.count == 2)
    }

    @Test(arguments: [
        (URLError(.timedOut) as any Error, OpenMarketError.timeout),
        (URLError(.cannotConnectToHost), .unreachable(reason: "connection refused")),
        (URLError(.cannotFindHost), .unreachable(reason: "host not found")),
        (URLError(.dnsLookupFailed), .unreachable(reason: "host not found")),
        (URLError(.networkConnectionLost), .unreachable(reason: "the connection was lost")),
        (URLError(.notConnectedToInternet), .unreachable(reason: "no network connection")),
        (URLError(.secureConnectionFailed), .unreachable(reason: "a secure connection could not be made")),
        (URLError(.badServerResponse), .unreachable(reason: "the server's answer was not valid HTTP")),
        (URLError(.unsupportedURL), .unreachable(reason: "the API address is not a valid http(s) URL")),
        (URLError(.cancelled), .unreachable(reason: "the request was cancelled")),
        (CancellationError(), .unreachable(reason: "the request was cancelled")),
        (TransportError.timeout, .timeout),
        (TransportError.unreachable(reason: "connection reset by peer"), .unreachable(reason: "connection reset by peer")),
    ])
    func transportFailures(error: any Error, expected: OpenMarketError) async {
        #expect(await detailFailure(.failure(error)) == expected)
    }

    @Test func anUnknownTransportErrorIsUnreachable() async {
        struct Weird: Error, CustomStringConvertible { var description: String { "socket went away" } }
        #expect(await detailFailure(.failure(Weird())) == .unreachable(reason: "socket went away"))
    }

    @Test func undecodableSuccessAnswers() async {
        #expect(await detailFailure(.text("", status: 200)) == .undecodable(path: "", reason: "the answer was empty"))
        #expect(await detailFailure(.json(#"{"id":"x"}"#)) == .undecodable(path: "id", reason: "expected a number"))
        #expect(await detailFailure(.text("<html>", status: 200)) == .undecodable(path: "", reason: "the answer is not valid JSON"))
    }

    // MARK: credentials never leak

    struct Echo: Error, CustomStringConvertible {
        var description: String { "failed for \(TestVendor.identifier) with \(TestVendor.secret) and \(TestVendor.password)" }
    }

    @Test func credentialsEchoedByTheServerAreRedacted() async {
        let echo = "identifier \(TestVendor.identifier), secret \(TestVendor.secret), password \(TestVendor.password)"
        let replies: [StubTransport.Reply] = [
            .json(#"{"code":401,"message":"\#(echo)"}"#, status: 401),
            .json(#"{"code":400,"message":"\#(echo)"}"#, status: 400),
            .text(echo, status: 500),
            .failure(TransportError.unreachable(reason: echo)),
            .failure(Echo()),
        ]
        for reply in replies {
            // The password is known to (and redacted by) the delete call only.
            let calls: [(checksPassword: Bool, run: (OpenMarketClient) async throws(OpenMarketError) -> Void)] = [
                (true, { c throws(OpenMarketError) in _ = try await c.delete(id: 1, password: TestVendor.password) }),
                (false, { c throws(OpenMarketError) in _ = try await c.update(id: 1, changes: .init(stock: 2)) }),
                (false, { c throws(OpenMarketError) in _ = try await c.create(NewProductValidationTests.valid) }),
            ]
            for call in calls {
                guard let error = await failure(reply, call: call.run) else { Issue.record("no error"); continue }
                let text = error.description + String(describing: error)
                #expect(!text.contains(TestVendor.identifier))
                #expect(!text.contains(TestVendor.secret))
                if call.checksPassword { #expect(!text.contains(TestVendor.password)) }
                #expect(text.contains("•••"))
            }
        }
    }

    @Test func aCredentialQuotedInAnUndecodableAnswerIsRedacted() async {
        let (client, _) = TestVendor.client(.v2a, [.json(String(decoding: EdgeCaseDecodingTests.detail(
            #", "vendors": {"id": 1, "name": "v", "created_at": "\#(TestVendor.secret)"}"#), as: UTF8.self))])
        do {
            _ = try await client.update(id: 9, changes: ProductChanges(stock: 1))
            Issue.record("expected an error")
        } catch {
            #expect(error == .undecodable(path: "vendors.created_at", reason: "not a date: \"•••\""))
        }
    }

    @Test func theV2aProductSecretIsRedactedFromTheSecondStep() async {
        let (client, _) = TestVendor.client(.v2a, [.text("prod-secret-9"), .text("bad secret prod-secret-9", status: 400)])
        do {
            _ = try await client.delete(id: 1, password: "pw-pw")
            Issue.record("expected an error")
        } catch {
            #expect(error == .badRequest(message: "bad secret •••"))
        }
    }

    @Test func aShortCredentialWithholdsTheWholeMessage() {
        let mapping = ErrorMapping(credentials: ["ab", "longer-secret"])
        #expect(mapping.redact("the secret ab was wrong") == "details withheld")
        #expect(mapping.redact("longer-secret was wrong") == "••• was wrong")
        #expect(mapping.redact("nothing here") == "nothing here")
    }

    @Test(arguments: [
        OpenMarketError.validation([FieldIssue(field: "name", message: "Too short.")]), .validation([]),
        .badRequest(message: "m"), .unauthorized(message: "m"), .forbidden(message: "m"), .notFound(message: "m"),
        .payloadTooLarge(message: "m"), .server(status: 502, message: "m"), .timeout, .unreachable(reason: "r"),
        .undecodable(path: "pages[3].price", reason: "expected a number"), .undecodable(path: "", reason: "r"),
    ])
    func everyDescriptionIsASentence(error: OpenMarketError) {
        let text = error.description
        #expect(text.first?.isUppercase == true)
        #expect(text.hasSuffix(".") || text.hasSuffix("m") || text.hasSuffix("r"))
        if case .undecodable(let path, _) = error, !path.isEmpty { #expect(text.contains(path)) }
        if case .server(let status, _) = error { #expect(text.contains("\(status)")) }
    }

    @Test func fieldIssuesAccessor() {
        let issues = [FieldIssue(field: "price", message: "The price must be more than 0.")]
        #expect(OpenMarketError.validation(issues).fieldIssues == issues)
        #expect(OpenMarketError.timeout.fieldIssues == [])
        #expect(OpenMarketError.validation(issues).description == "Some values are not valid. price: The price must be more than 0.")
    }
}
