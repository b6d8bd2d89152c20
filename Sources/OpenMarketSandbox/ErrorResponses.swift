import Foundation
import HTTPServer

/// Every error status of the sandbox answers `{"code": N, "message": "..."}` as application/json,
/// whether the refusal came from our rules, from HTTPServer's body parsing or from a failure.
enum ErrorResponses {
    static func json(_ failure: APIFailure) -> HTTPResponse {
        HTTPResponse.json(Data(ProductJSON.error(status: failure.status, message: failure.message).utf8),
                          status: failure.status)
    }

    /// Wraps a handler so that whatever it throws is answered in the API's JSON error form.
    static func catching(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { request in
            do {
                return try await handler(request)
            } catch let failure as APIFailure {
                return json(failure)
            } catch let error as HTTPError {
                // Body parsing: malformed multipart (400), over a parser limit (413), early close.
                return json(APIFailure(status: error.status, message: "body: " + error.message))
            } catch {
                // Details go to the log (they name no credential); the client gets a plain sentence.
                let route = request.routeTemplate ?? request.path
                FileHandle.standardError.write(Data("sandbox: \(request.method) \(route) failed: \(error)\n".utf8))
                return json(APIFailure(status: 500, message: "the sandbox failed to answer; see its log"))
            }
        }
    }

    /// Turns the router's own plain-text errors (404, 405) into the API's JSON form.
    static let middleware: Middleware = { request, next in
        jsonIfError(try await next(request))
    }

    /// Router-made errors (405 …) come as plain text; rewrite them in the API's JSON form.
    static func jsonIfError(_ response: HTTPResponse) -> HTTPResponse {
        guard response.status >= 400,
              !(response.headers["content-type"] ?? "").hasPrefix("application/json") else { return response }
        var converted = json(APIFailure(status: response.status, message: reason(response.status)))
        for (name, value) in response.headers where name.lowercased() == "allow" || name.lowercased() == "connection" {
            converted.headers.add(name, value)
        }
        return converted
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "bad request"
        case 404: "not found"
        case 405: "method not allowed"
        case 413: "the request body is too large (at most \(SandboxAPI.maxBody >> 20) MiB)"
        default: "HTTP status \(status)"
        }
    }
}
