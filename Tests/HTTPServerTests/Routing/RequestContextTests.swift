import Foundation
import Testing
@testable import HTTPServer

/// A context with route options: what the router starts a request with, and what a middleware
/// passes on, is what the handler gets.
@Suite struct RequestContextTests {
    struct Tagged: RequestContext {
        /// The route's tag, or what the router found when no route answers.
        var tag: String
        var seenBy: [String] = []

        init(request: HTTPRequest, route: RouteLookup<String>) {
            switch route {
            case .found(let route): tag = route.options
            case .bodyRefused(let route): tag = "refused " + route.options
            case .methodNotAllowed(let routes): tag = "405 " + routes.map(\.options).joined(separator: "+")
            case .notFound: tag = "404 " + request.method
            }
        }
    }

    func router() -> Router<Tagged> {
        var r = Router(context: Tagged.self)
        r.use { request, context, next in
            var context = context
            context.seenBy.append("outer")
            return try await next(request, context)
        }
        let answer: RouteHandler<Tagged> = { _, context in .text(([context.tag] + context.seenBy).joined(separator: ","), status: 200) }
        r.add("GET", "/items/{id}", options: "item", answer)
        r.add("DELETE", "/items/{id}", bodyLimit: 10, options: "delete", answer)
        r.add("GET", "/items/new", options: "new", answer)
        r.notFoundHandler = answer
        r.payloadTooLargeHandler = answer
        return r
    }

    func body(_ r: HTTPResponse) -> String { String(decoding: r.bodyData ?? Data(), as: UTF8.self) }

    @Test func theHandlerGetsTheMatchedRoutesOptionsAsTheMiddlewarePassedThemOn() async throws {
        let r = router()
        #expect(body(await r.respond(to: try HTTPRequest(target: "/items/3"))) == "item,outer")
        #expect(body(await r.respond(to: try HTTPRequest(target: "/items/new"))) == "new,outer")
        #expect(body(await r.respond(to: try HTTPRequest(method: "HEAD", target: "/items/3"))) == "item,outer")
        #expect(body(await r.respond(to: try HTTPRequest(method: "POST", target: "/nowhere"))) == "404 POST,outer")
        // A 405 is a plain answer; its context knew the routes at the path.
        let refused = await r.respond(to: try HTTPRequest(method: "PUT", target: "/items/3"))
        #expect(refused.status == 405 && refused.headers["Allow"] == "GET, DELETE, HEAD")
        guard case .methodNotAllowed(let routes) = r.lookup(method: "PUT", path: "/items/3") else {
            Issue.record("not a 405"); return
        }
        #expect(Set(routes.map(\.options)) == ["item", "delete"])
    }

    @Test func routesKeepTheirOrderOptionsAndLimits() {
        var r = router()
        #expect(r.routes.map { "\($0.method) \($0.pattern.template) \($0.options)" }
                == ["GET /items/{id} item", "DELETE /items/{id} delete", "GET /items/new new"])
        r.setBodyLimits { $0.options == "item" ? 5 : $0.bodyLimit }
        #expect(r.routes.map(\.bodyLimit) == [5, 10, nil])
        #expect(r.bodyLimit(for: r.match(method: "DELETE", segments: ["items", "1"]), default: 99) == 10)
    }

    @Test func aRefusedBodyGetsTheRefusalWithItsRoutesContext() async throws {
        let r = router()
        let request = try HTTPRequest(method: "DELETE", target: "/items/3")
        let response = await r.respond(to: request, match: r.match(method: "DELETE", segments: ["items", "3"]), bodyRefused: true)
        #expect(response.status == 413 && body(response) == "refused delete,outer")
    }
}
