import Foundation
import Testing
@testable import HTTPServer

@Suite struct RouterTests {
    func router() -> Router<BasicRequestContext> {
        var r = Router()
        r.get("/products/{id}") { req in .text("product \(req.pathParameters["id"] ?? "")") }
        r.get("/products/new") { _ in .text("new form") }
        r.post("/products/{id}") { req in .text("posted \(req.pathParameters["id"] ?? "")") }
        r.get("/static/{path...}") { req in .text("static \(req.pathParameters["path"] ?? "")") }
        return r
    }

    func body(_ r: HTTPResponse) -> String { String(decoding: r.bodyData ?? Data(), as: UTF8.self) }

    @Test func pathParametersAndSpecificity() async throws {
        let r = router()
        #expect(body(await r.respond(to: try HTTPRequest(target: "/products/12"))) == "product 12")
        #expect(body(await r.respond(to: try HTTPRequest(target: "/products/new"))) == "new form")
        #expect(body(await r.respond(to: try HTTPRequest(method: "POST", target: "/products/7"))) == "posted 7")
        #expect(body(await r.respond(to: try HTTPRequest(target: "/static/css/app.css?v=1"))) == "static css/app.css")
        #expect(body(await r.respond(to: try HTTPRequest(target: "/products/a%20b"))) == "product a b")
    }

    @Test func notFoundAndMethodNotAllowed() async throws {
        let r = router()
        let missing = await r.respond(to: try HTTPRequest(target: "/nothing"))
        #expect(missing.status == 404)
        let wrong = await r.respond(to: try HTTPRequest(method: "DELETE", target: "/products/1"))
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, POST, HEAD")
        let head = await r.respond(to: try HTTPRequest(method: "HEAD", target: "/products/3"))
        #expect(head.status == 200)
    }

    @Test func middlewareWrapsHandlersAndErrors() async throws {
        var r = Router()
        r.get("/fail") { _ in throw HTTPError(status: 403, message: "No") }
        r.get("/crash") { _ in throw CancellationError() }
        r.use { req, next in
            var response = try await next(req)
            response.headers["X-Frame-Options"] = "DENY"
            return response
        }
        r.notFoundHandler = { _, _ in .html("<h1>gone</h1>", status: 404) }
        let denied = await r.respond(to: try HTTPRequest(target: "/fail"))
        #expect(denied.status == 403 && denied.headers["x-frame-options"] == "DENY")
        #expect(body(denied) == "No\n")
        #expect(await r.respond(to: try HTTPRequest(target: "/crash")).status == 500)
        let missing = await r.respond(to: try HTTPRequest(target: "/x"))
        #expect(body(missing) == "<h1>gone</h1>" && missing.headers["X-Frame-Options"] == "DENY")
    }
}
