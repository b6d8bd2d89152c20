import Foundation
import HTTPServer

/// The checks every write makes: the `identifier` header names a vendor, and the body's
/// `secret` is that vendor's. Refusals never repeat the identifier or the secret.
struct Credentials: Sendable {
    let store: ProductStore

    /// The vendor of the request's `identifier` header: missing → 400, unknown → 401.
    func vendor(of request: HTTPRequest) async throws -> VendorRecord {
        guard let identifier = request.headers["identifier"]?.trimmingCharacters(in: .whitespaces),
              !identifier.isEmpty else {
            throw APIFailure.badRequest("identifier: the header is missing")
        }
        guard let vendor = try await store.vendor(identifier: identifier) else {
            throw APIFailure.unauthorized("identifier: no vendor has this identifier")
        }
        return vendor
    }

    /// A secret that is not `vendor`'s → 401.
    func check(secret: String, of vendor: VendorRecord) throws(APIFailure) {
        guard Secrets.equal(secret, vendor.secret) else {
            throw .unauthorized("secret: does not match the vendor's secret")
        }
    }
}
