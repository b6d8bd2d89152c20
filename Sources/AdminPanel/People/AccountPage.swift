import Foundation
import OpenMarketCore
import HTTPServer

/// `/account`: your own password and your own sessions (each revocable, or all but this one), and
/// for owners the vendor password.
extension AccountController {
    func accountPage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        return try await accountView(context: context, issues: [:], status: 200)
    }

    /// `POST /account/password` (`current_password`, `password`, `password_confirm`). Other
    /// sessions end (a changed password usually means the old one was known to someone).
    func changePassword(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        guard context.signedIn, let person = await accounts.people.person(named: context.person) else {
            throw PageFailure.forbidden("account_sign_in_off")
        }
        let current = form["current_password"] ?? ""
        let password = form["password"] ?? ""
        var issues: [String: String] = [:]
        // The current password is checked within the sign-in limits, so this form is no way around them.
        switch await signInGate.reserve(person.name.lowercased(), request.remoteAddress) {
        case .failure(let wait):
            var response = try await accountView(context: context, issues: ["current_password": "account_too_many"], status: 429,
                                                 wait: wait.seconds)
            response.headers["Retry-After"] = wait.header
            return response
        case .success(let ticket):
            if current.utf8.count <= PasswordRules.maximumBytes, await hasher.verify(current, against: person.passwordHash) {
                await signInGate.release(ticket)
            } else {
                issues["current_password"] = "account_current_wrong"
            }
        }
        if let problem = PasswordRules.problem(password: password, confirmation: form["password_confirm"], name: person.name) {
            issues[problem == "password_mismatch" ? "password_confirm" : "password"] = problem
        }
        guard issues.isEmpty else { return try await accountView(context: context, issues: issues, status: 422) }
        try await accounts.people.setPassword(of: person.name, hash: try await hasher.hash(password))
        await accounts.sessions.revokeAll(of: person.name, keeping: context.sessionHash)
        await accounts.activity.record(ActivityEntry(context, request, action: "password-changed"))
        return pages.redirect(to: "/account", flash: context.localizer("account_password_changed"))
    }

    /// `POST /account/vendor-password` (owners, `current_password`, `csrf_token`): the vendor password
    /// that deleting asks for, so an owner can hand it to the person who deletes. Shown only in the
    /// answer to the owner's own password typed again (checked within the sign-in limits, like the
    /// password form), marked `no-store`, never logged; viewing it is an activity row (without it).
    func showVendorPassword(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        // Without sign-in there is no password to type again: the console printed it at start.
        guard context.signedIn, let person = await accounts.people.person(named: context.person) else {
            throw PageFailure.forbidden("account_vendor_password_sign_in_off")
        }
        guard dialect.hasVendor else { throw PageFailure.forbidden("account_vendor_password_v1") }
        let current = form["current_password"] ?? ""
        switch await signInGate.reserve(person.name.lowercased(), request.remoteAddress) {
        case .failure(let wait):
            var response = try await accountView(context: context, issues: ["vendor_current_password": "account_too_many"],
                                                 status: 429, wait: wait.seconds)
            response.headers["Retry-After"] = wait.header
            return response
        case .success(let ticket):
            guard current.utf8.count <= PasswordRules.maximumBytes, await hasher.verify(current, against: person.passwordHash) else {
                return try await accountView(context: context, issues: ["vendor_current_password": "account_current_wrong"], status: 422)
            }
            await signInGate.release(ticket)
        }
        await accounts.activity.record(ActivityEntry(context, request, action: "vendor-password-viewed"))
        var response = try await accountView(context: context, issues: [:], status: 200, vendorPassword: pages.configuration.api.secret)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `POST /account/sessions/{handle}/revoke`: one of your sessions (the handle is a prefix of
    /// its stored hash, never the id itself).
    func revokeSession(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let handle = request.pathParameters["handle"] ?? ""
        guard handle.count == 16, let target = await accounts.sessions.sessions(of: context.person).first(where: { $0.idHash.hasPrefix(handle) }) else {
            throw PageFailure.notFound("account_session_gone")
        }
        await accounts.sessions.revoke(target.idHash)
        await accounts.activity.record(ActivityEntry(context, request, action: "session-revoked",
                                            detail: ActivityDetail("session_revoked", target.browser == SessionStore.unknownBrowser
                                                ? ["browser_key": "account_browser_unknown"] : ["browser": target.browser]).stored))
        if target.idHash == context.sessionHash {
            var response = HTTPResponse.redirect(to: "/login", status: 303)
            response.setCookie(.expired(SessionStore.cookieName))
            return response
        }
        return pages.redirect(to: "/account", flash: context.localizer("account_session_revoked"))
    }

    /// `POST /account/sessions/others/revoke`: sign out everywhere else.
    func revokeOtherSessions(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let count = await accounts.sessions.revokeAll(of: context.person, keeping: context.sessionHash)
        if count > 0 {
            await accounts.activity.record(ActivityEntry(context, request, action: "session-revoked", detail: ActivityDetail("sessions_revoked_others", ["count": String(count)]).stored))
        }
        return pages.redirect(to: "/account", flash: context.localizer("account_others_revoked"))
    }

    /// `vendorPassword`: shown only in the answer to `showVendorPassword`.
    private func accountView(context: PanelContext, issues: [String: String], status: Int, wait: TimeInterval = 0,
                     vendorPassword: String? = nil) async throws -> HTTPResponse {
        let l = context.localizer
        let person = context.person
        let own = context.signedIn ? await accounts.sessions.sessions(of: person) : []
        func message(_ field: String) -> MessageView? {
            issues[field].map { MessageView(message: l($0, ["min": String(PasswordRules.minimumLength), "wait": l.duration(wait)])) }
        }
        let view = AccountPageView(
            csrfToken: context.csrfToken, person: person,
            roleLabel: l(context.role.labelKey), signedIn: context.signedIn,
            sessions: own.map { record in
                AccountSessionView(handle: String(record.idHash.prefix(16)), address: record.address,
                                   browser: record.browser == SessionStore.unknownBrowser ? l("account_browser_unknown") : record.browser,
                                   lastSeen: l.dateTime(record.lastSeen, in: pages.configuration.timeZone),
                                   current: record.idHash == context.sessionHash)
            },
            alert: issues.keys.contains(where: { $0 != "vendor_current_password" }) ? MessageView(message: l("form_has_errors")) : nil,
            currentPasswordError: message("current_password"),
            newPassword: NewPasswordFields(label: l("account_new_password"), passwordError: message("password"),
                                           confirmationError: message("password_confirm")),
            vendorPassword: context.role == .owner && context.signedIn && dialect.hasVendor
                ? VendorPasswordView(password: vendorPassword, currentPasswordError: message("vendor_current_password")) : nil)
        return try pages.page(view, title: l("account_heading"), context: context, section: .account, status: status)
    }
}
