/// A refusal the sandbox answers with `{"code": status, "message": message}`.
/// Messages name the field and the reason; they never contain an identifier or a secret.
struct APIFailure: Error, Sendable, Equatable {
    var status: Int
    var message: String

    static func badRequest(_ message: String) -> APIFailure { APIFailure(status: 400, message: message) }
    static func unauthorized(_ message: String) -> APIFailure { APIFailure(status: 401, message: message) }
    static func forbidden(_ message: String) -> APIFailure { APIFailure(status: 403, message: message) }
    static func notFound(_ message: String) -> APIFailure { APIFailure(status: 404, message: message) }
    static func payloadTooLarge(_ message: String) -> APIFailure { APIFailure(status: 413, message: message) }

    static func productNotFound(_ id: Int) -> APIFailure { .notFound("product \(id) does not exist") }
    static let notYourProduct = APIFailure.forbidden("this product belongs to another vendor")
}
