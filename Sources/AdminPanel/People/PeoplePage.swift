import Foundation
import HTTPServer

/// `/people` (owners only; the role middleware enforces it): everyone with role, status and
/// last seen; invite, change role, disable, reset. An invitation or reset shows its one-time
/// link once, on the answer page itself (it is never stored, only its hash).
extension PeopleController {
    func peoplePage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        return try await peopleView(context: context, status: 200)
    }

    /// `POST /people` (`name`, `role`): a new person and their invitation link.
    func invitePerson(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        guard let role = Role(rawValue: form["role"] ?? "") else {
            return try await peopleView(context: context, invite: .init(name: name, role: nil, nameError: nil, roleError: "people_role_required"),
                                        status: 422)
        }
        if let problem = PersonNameRules.problem(name) {
            return try await peopleView(context: context, invite: .init(name: name, role: role, nameError: problem), status: 422)
        }
        let token = SecureToken.make(byteCount: 16)
        do {
            try await accounts.people.invite(name: name, role: role, tokenHash: PanelCrypto.sha256Hex(token))
        } catch PeopleProblem.nameTaken {
            return try await peopleView(context: context, invite: .init(name: name, role: role, nameError: "person_name_taken"), status: 422)
        }
        await accounts.activity.record(ActivityEntry(context, request, action: "person-invited", detail: ActivityDetail("person_invited", ["name": name, "role": role.rawValue]).stored))
        return try await peopleView(context: context, link: .init(name: name, url: invitationURL(token, request: request), reset: false),
                                    status: 200)
    }

    /// `POST /people/{name}/role` (`role`)
    func changeRole(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let (person, form) = try await personAction(request, context)
        guard let role = Role(rawValue: form["role"] ?? "") else {
            return try await peopleView(context: context, rowError: (person.name, "people_role_required"), status: 422)
        }
        do {
            let old = try await accounts.people.setRole(of: person.name, to: role)
            if old != role {
                await accounts.activity.record(ActivityEntry(context, request, action: "role-changed",
                                                    detail: ActivityDetail("role_changed", ["name": person.name, "old_role": old.rawValue,
                                                                                     "new_role": role.rawValue]).stored))
            }
        } catch let problem as PeopleProblem {
            return try await peopleView(context: context, rowError: (person.name, problem.key), status: 422)
        }
        return pages.redirect(to: "/people", flash: context.localizer("people_role_changed", ["name": person.name, "role": context.localizer(role.labelKey)]))
    }

    /// `POST /people/{name}/disable`: out everywhere at once; the last owner stays.
    func disablePerson(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let (person, _) = try await personAction(request, context)
        do {
            try await accounts.people.disable(person.name)
        } catch let problem as PeopleProblem {
            return try await peopleView(context: context, rowError: (person.name, problem.key), status: 422)
        }
        await accounts.sessions.revokeAll(of: person.name)
        await accounts.activity.record(ActivityEntry(context, request, action: "person-disabled",
                                            detail: ActivityDetail("person_disabled", ["name": person.name]).stored))
        return pages.redirect(to: "/people", flash: context.localizer("people_disabled", ["name": person.name]))
    }

    /// `POST /people/{name}/reset`: a new invitation link; the old password stops working and
    /// every session of that person ends. (Accepting the link also re-enables a disabled person.)
    func resetPerson(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let (person, _) = try await personAction(request, context)
        guard person.name != context.person else {
            return try await peopleView(context: context, rowError: (person.name, "people_reset_self"), status: 422)
        }
        let token = SecureToken.make(byteCount: 16)
        try await accounts.people.reset(person.name, tokenHash: PanelCrypto.sha256Hex(token))
        await accounts.sessions.revokeAll(of: person.name)
        await accounts.activity.record(ActivityEntry(context, request, action: "person-invited", detail: ActivityDetail("password_reset", ["name": person.name]).stored))
        return try await peopleView(context: context, link: .init(name: person.name, url: invitationURL(token, request: request), reset: true),
                                    status: 200)
    }

    // MARK: helpers

    private func personAction(_ request: HTTPRequest, _ context: PanelContext) async throws -> (Person, FormFields) {
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        guard let name = request.pathParameters["name"], let person = await accounts.people.person(named: name) else {
            throw PageFailure.notFound("people_unknown")
        }
        return (person, form)
    }

    /// The full link to hand over, at an address colleagues can open (`ColleagueAddress`): never
    /// the wildcard, never the loopback address the owner may be using. Only a panel bound to one
    /// address, reached under another of its names (a reverse proxy's `--allowed-host`), keeps
    /// the name this browser used (the host check has already accepted it).
    func invitationURL(_ token: String, request: HTTPRequest) -> String {
        if pages.configuration.publicURL == nil, !ColleagueAddress.isWildcard(pages.configuration.host),
           let host = request.headers["Host"], let (name, _) = HostAllowList.split(host.lowercased()),
           !HostAllowList.isLoopback(name) {
            return "\(pages.configuration.scheme)://\(host)/invite/\(token)"
        }
        return colleagueBaseURL + "/invite/" + token
    }

    struct InviteFormState {
        var name = ""
        var role: Role? = .editor
        var nameError: String?
        var roleError: String?
    }

    struct InvitationLink {
        var name: String
        var url: String
        var reset: Bool
    }

    private func peopleView(context: PanelContext, invite: InviteFormState = .init(), link: InvitationLink? = nil,
                            rowError: (name: String, key: String)? = nil, status: Int) async throws -> HTTPResponse {
        let l = context.localizer
        let everyone = await accounts.people.all
        func roleOptions(chosen: Role?) -> [ListOptionView] {
            Role.allCases.map { ListOptionView(value: $0.rawValue, label: l($0.labelKey), chosen: $0 == chosen) }
        }
        let rows = everyone.map { person in
            let status = person.disabled ? "disabled" : person.passwordHash == nil ? "invited" : "active"
            return PersonRowView(
                name: person.name, path: "/people/" + ListLinks.encode(person.name),
                role: person.role.rawValue, roleLabel: l(person.role.labelKey),
                status: status, statusLabel: l(Person.statusKey(status)),
                lastSeen: person.lastSeen.map { l.date($0) } ?? l("people_never"),
                isYou: person.name == context.person,
                roles: roleOptions(chosen: person.role),
                rowError: rowError.flatMap { $0.name == person.name ? MessageView(message: l($0.key)) : nil },
                canDisable: !person.disabled)
        }
        let view = PeoplePageView(
            csrfToken: context.csrfToken, people: rows, inviteName: invite.name,
            inviteRoles: roleOptions(chosen: invite.role),
            nameError: invite.nameError.map { MessageView(message: l($0)) },
            roleError: invite.roleError.map { MessageView(message: l($0)) },
            link: link.map { link in
                InvitationLinkView(url: link.url,
                                   message: l(link.reset ? "people_reset_link" : "people_invited_link", ["name": link.name]))
            },
            signInOff: !pages.configuration.signIn)
        var response = try pages.page(view, title: l("people_heading"), context: context, section: .people, status: status)
        if link != nil { response.headers["Cache-Control"] = "no-store" }
        return response
    }
}
