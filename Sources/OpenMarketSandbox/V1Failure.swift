/// A refusal of the v1 API, answered `{"error":true,"reason":"…"}` (Vapor's error shape).
/// Reasons name the field at fault; they never contain a password.
struct V1Failure: Error, Sendable, Equatable {
    var status: Int
    var reason: String

    static func badRequest(_ reason: String) -> V1Failure { V1Failure(status: 400, reason: reason) }
    static let notFound = V1Failure(status: 404, reason: "Not Found")
    static let wrongPassword = V1Failure(status: 401, reason: "Cannot find data for ID and password")
    static let tooManyImages = V1Failure(status: 400, reason: "The number of images must be 5 or less")
}
