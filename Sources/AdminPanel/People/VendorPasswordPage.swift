import Foundation
import HTTPServer
import OpenMarketCore

/// `POST /account/vendor-password` (owners, `current_password`, `csrf_token`): the vendor password
/// that deleting asks for, so an owner can hand it to the person who deletes. Shown only in the
/// answer to the owner's own password typed again (checked within the sign-in limits, like the
/// password form), marked `no-store`, never logged; viewing it is an activity row (without it).
extension PeopleController {
    func showVendorPassword(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        let visit = visit(request, session: session)
        guard session.role == .owner else { throw PageFailure.forbidden("failure_owner_only") }
        // Without sign-in there is no password to type again: the console printed it at start.
        guard session.signedIn, let person = await people.person(named: session.person) else {
            throw PageFailure.forbidden("account_vendor_password_sign_in_off")
        }
        guard configuration.api.dialect != .v1 else { throw PageFailure.forbidden("account_vendor_password_v1") }
        let current = form["current_password"] ?? ""
        switch await signInGate.reserve(person.name.lowercased(), request.remoteAddress) {
        case .failure(let wait):
            var response = try await accountView(visit: visit, issues: ["vendor_current_password": "account_too_many"],
                                                 status: 429, wait: wait.seconds)
            response.headers["Retry-After"] = wait.header
            return response
        case .success(let ticket):
            guard current.utf8.count <= PasswordRules.maximumBytes, await hasher.verify(current, against: person.passwordHash) else {
                return try await accountView(visit: visit, issues: ["vendor_current_password": "account_current_wrong"], status: 422)
            }
            await signInGate.release(ticket)
        }
        await activity.record(ActivityEntry(session, request, action: "vendor-password-viewed"))
        var response = try await accountView(visit: visit, issues: [:], status: 200, vendorPassword: configuration.api.secret)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
