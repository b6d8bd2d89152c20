import Foundation
import HTTPServer

/// The two links that end in a password: `/setup/{token}` (the first owner, printed at start)
/// and `/invite/{token}` (everyone else, 72 h, one-time). Used, expired or wrong → 404.
extension PeopleController {
    // MARK: setup

    func setupForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        try await requireSetupToken(request)
        let context = context.withFormKey()
        return try passwordPage(context: context, mode: .setup, action: request.path, name: "", issues: [:], status: 200)
    }

    func setup(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        try await requireSetupToken(request)
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form["password"] ?? ""
        var issues: [String: String] = [:]
        if let problem = PersonNameRules.problem(name) { issues["name"] = problem }
        if let problem = PasswordRules.problem(password: password, confirmation: form["password_confirm"], name: name) {
            issues[problem == "password_mismatch" ? "password_confirm" : "password"] = problem
        }
        guard issues.isEmpty else {
            return try passwordPage(context: context, mode: .setup, action: request.path, name: name, issues: issues, status: 422)
        }
        let hash = try await hasher.hash(password)
        let owner: Person
        do {
            owner = try await accounts.people.createOwner(name: name, passwordHash: hash)
        } catch PeopleProblem.alreadySetUp {
            throw PageFailure.notFound()
        }
        let cookie = try await accounts.startSession(for: owner, request: request, detail: ActivityDetail("owner_set_up").stored)
        return SessionController.signedIn(cookie, redirectTo: "/products")
    }

    private func requireSetupToken(_ request: HTTPRequest) async throws {
        guard let expected = setupToken, let given = request.pathParameters["token"], Secrets.equal(given, expected),
              await !accounts.people.hasOwner else { throw PageFailure.notFound() }
    }

    // MARK: invitation

    func invitationForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let person = try await invitedPerson(request)
        let context = context.withFormKey()
        return try passwordPage(context: context, mode: .invitation, action: request.path, name: person.name, issues: [:], status: 200)
    }

    func acceptInvitation(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let person = try await invitedPerson(request)
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let password = form["password"] ?? ""
        if let problem = PasswordRules.problem(password: password, confirmation: form["password_confirm"], name: person.name) {
            let field = problem == "password_mismatch" ? "password_confirm" : "password"
            return try passwordPage(context: context, mode: .invitation, action: request.path, name: person.name,
                                    issues: [field: problem], status: 422)
        }
        let hash = try await hasher.hash(password)
        let tokenHash = PanelCrypto.sha256Hex(request.pathParameters["token"] ?? "")
        guard let accepted = try await accounts.people.acceptInvitation(tokenHash: tokenHash, passwordHash: hash) else {
            throw PageFailure.notFound()
        }
        let cookie = try await accounts.startSession(for: accepted, request: request, detail: ActivityDetail("invitation_accepted").stored)
        return SessionController.signedIn(cookie, redirectTo: "/products")
    }

    private func invitedPerson(_ request: HTTPRequest) async throws -> Person {
        guard let token = request.pathParameters["token"], PanelCrypto.isToken(token, hexLength: 32),
              let person = await accounts.people.invitation(tokenHash: PanelCrypto.sha256Hex(token)) else {
            throw PageFailure.notFound("failure_link_used_or_expired")
        }
        return person
    }

    // MARK: page

    enum PasswordPageMode { case setup, invitation }

    private func passwordPage(context: PanelContext, mode: PasswordPageMode, action: String, name: String,
                              issues: [String: String], status: Int) throws -> HTTPResponse {
        let l = context.localizer
        func message(_ field: String) -> MessageView? {
            issues[field].map { MessageView(message: l($0, ["min": String(PasswordRules.minimumLength)])) }
        }
        let view = PasswordSetupView(
            csrfToken: context.csrfToken, action: action, name: name, mode: mode,
            intro: mode == .setup ? l("setup_intro") : l("invite_intro", ["name": name]),
            alert: issues.isEmpty ? nil : MessageView(message: l("form_has_errors")),
            nameError: message("name"),
            newPassword: NewPasswordFields(label: l("password_label"), passwordError: message("password"),
                                           confirmationError: message("password_confirm")))
        return try pages.page(view, title: mode == .setup ? l("setup_heading") : l("invite_heading"), context: context, status: status)
    }
}
