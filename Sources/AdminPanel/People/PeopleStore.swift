import Foundation
import SQLiteStore

/// A person who may sign in: name, role, and an Argon2id hash once they have set a password.
struct Person: Sendable, Equatable {
    var name: String
    var role: Role
    var passwordHash: String?
    var disabled: Bool
    var created: Date
    var lastSeen: Date?

    /// May sign in: not disabled and a password set (an invited person has none yet).
    var isActive: Bool { !disabled && passwordHash != nil }

    /// The catalog key of a status shown on /people (`active`, `invited`, `disabled`).
    static func statusKey(_ status: String) -> String { "people_status_" + status }
}

/// Why a change to people was refused (catalog keys, shown next to the form).
enum PeopleProblem: Error, Equatable {
    case nameTaken, lastOwner, unknownPerson, alreadySetUp

    var key: String {
        switch self {
        case .nameTaken: "person_name_taken"
        case .lastOwner: "people_last_owner"
        case .unknownPerson: "people_unknown"
        case .alreadySetUp: "setup_done"
        }
    }
}

/// People and their invitations, in `panel.sqlite` and mirrored in memory (a team is small).
/// Every change checks its rule and updates memory in one actor turn, then writes through;
/// invitation tokens are stored as SHA-256 only and are one-time.
actor PeopleStore {
    private var people: [String: Person] = [:]              // by folded name
    private var invitations: [String: (person: String, expires: Date)] = [:]   // by token hash
    private var persistedSeen: [String: Date] = [:]
    private let database: PanelDatabase
    private let now: @Sendable () -> Date

    static let invitationLifetime: TimeInterval = 72 * 3600
    /// Whether an owner existed when the panel started (decides whether a setup link is printed).
    nonisolated let hadOwnerAtStart: Bool

    init(database: PanelDatabase, now: @escaping @Sendable () -> Date) throws {
        self.database = database
        self.now = now
        let (loadedPeople, loadedInvitations) = try database.writer.performNow { connection in
            var people: [Person] = []
            try connection.query("SELECT name, role, password_hash, disabled, created_at, last_seen FROM people") { row in
                people.append(Person(name: row.string(0), role: Role(rawValue: row.string(1)) ?? .viewer,
                                     passwordHash: row.isNull(2) ? nil : row.string(2), disabled: row.int(3) != 0,
                                     created: Date(timeIntervalSince1970: row.double(4)),
                                     lastSeen: row.isNull(5) ? nil : Date(timeIntervalSince1970: row.double(5))))
            }
            var invitations: [(String, String, Date)] = []
            try connection.query("SELECT token_hash, person, expires_at FROM invitations") { row in
                invitations.append((row.string(0), row.string(1), Date(timeIntervalSince1970: row.double(2))))
            }
            return (people, invitations)
        }
        for person in loadedPeople { people[person.name.lowercased()] = person }
        for (hash, person, expires) in loadedInvitations { invitations[hash] = (person, expires) }
        hadOwnerAtStart = loadedPeople.contains { $0.role == .owner }
    }

    func person(named name: String) -> Person? { people[name.lowercased()] }

    var all: [Person] { people.values.sorted { $0.name.lowercased() < $1.name.lowercased() } }

    var hasOwner: Bool { people.values.contains { $0.role == .owner } }

    /// The first owner (setup). Refused once any owner exists.
    func createOwner(name: String, passwordHash: String) async throws -> Person {
        guard !hasOwner else { throw PeopleProblem.alreadySetUp }
        guard people[name.lowercased()] == nil else { throw PeopleProblem.nameTaken }
        let person = Person(name: name, role: .owner, passwordHash: passwordHash, disabled: false, created: now(), lastSeen: now())
        people[name.lowercased()] = person
        try await persistInsert(person)
        return person
    }

    /// A new person with no password yet and a one-time invitation for them.
    func invite(name: String, role: Role, tokenHash: String) async throws {
        guard people[name.lowercased()] == nil else { throw PeopleProblem.nameTaken }
        let person = Person(name: name, role: role, passwordHash: nil, disabled: false, created: now(), lastSeen: nil)
        people[name.lowercased()] = person
        let expires = now().addingTimeInterval(Self.invitationLifetime)
        invitations[tokenHash] = (name, expires)
        try await persistInsert(person)
        try await persistInvitation(tokenHash: tokenHash, person: name, expires: expires, replacing: false)
    }

    /// The person an unexpired invitation is for.
    func invitation(tokenHash: String) -> Person? {
        guard let invitation = invitations[tokenHash], invitation.expires > now() else { return nil }
        return people[invitation.person.lowercased()]
    }

    /// Uses an invitation: sets the password, re-enables the person, and makes the link dead.
    func acceptInvitation(tokenHash: String, passwordHash: String) async throws -> Person? {
        guard let invitation = invitations[tokenHash], invitation.expires > now(),
              var person = people[invitation.person.lowercased()] else { return nil }
        invitations[tokenHash] = nil
        person.passwordHash = passwordHash
        person.disabled = false
        person.lastSeen = now()
        people[person.name.lowercased()] = person
        let name = person.name, time = now().timeIntervalSince1970
        try await database.writer.perform { connection in
            try connection.transaction {
                try connection.run("DELETE FROM invitations WHERE person = ?", [.text(name)])
                try connection.run("UPDATE people SET password_hash = ?, disabled = 0, last_seen = ? WHERE name = ?",
                                   [.text(passwordHash), .real(time), .text(name)])
            }
        }
        invitations = invitations.filter { $0.value.person != name }
        return person
    }

    /// The last active owner keeps the role: demoting them would leave nobody to manage people.
    func setRole(of name: String, to role: Role) async throws -> Role {
        guard var person = people[name.lowercased()] else { throw PeopleProblem.unknownPerson }
        let old = person.role
        if old == .owner, role != .owner, isLastOwner(person) { throw PeopleProblem.lastOwner }
        person.role = role
        people[name.lowercased()] = person
        let stored = person.name
        try await database.writer.perform { connection in
            try connection.run("UPDATE people SET role = ? WHERE name = ?", [.text(role.rawValue), .text(stored)])
        }
        return old
    }

    func disable(_ name: String) async throws {
        guard var person = people[name.lowercased()] else { throw PeopleProblem.unknownPerson }
        if person.role == .owner, isLastOwner(person) { throw PeopleProblem.lastOwner }
        person.disabled = true
        people[name.lowercased()] = person
        let stored = person.name
        invitations = invitations.filter { $0.value.person != stored }
        try await database.writer.perform { connection in
            try connection.transaction {
                try connection.run("UPDATE people SET disabled = 1 WHERE name = ?", [.text(stored)])
                try connection.run("DELETE FROM invitations WHERE person = ?", [.text(stored)])
            }
        }
    }

    /// A new invitation link; the old password stops working at once (and older links too).
    func reset(_ name: String, tokenHash: String) async throws {
        guard var person = people[name.lowercased()] else { throw PeopleProblem.unknownPerson }
        person.passwordHash = nil
        people[name.lowercased()] = person
        let stored = person.name
        invitations = invitations.filter { $0.value.person != stored }
        let expires = now().addingTimeInterval(Self.invitationLifetime)
        invitations[tokenHash] = (stored, expires)
        try await database.writer.perform { connection in
            try connection.run("UPDATE people SET password_hash = NULL WHERE name = ?", [.text(stored)])
        }
        try await persistInvitation(tokenHash: tokenHash, person: stored, expires: expires, replacing: true)
    }

    func setPassword(of name: String, hash: String) async throws {
        guard var person = people[name.lowercased()] else { throw PeopleProblem.unknownPerson }
        person.passwordHash = hash
        people[name.lowercased()] = person
        let stored = person.name
        try await database.writer.perform { connection in
            try connection.run("UPDATE people SET password_hash = ? WHERE name = ?", [.text(hash), .text(stored)])
        }
    }

    /// Records that `name` was active now (written at most once a minute per person).
    func touch(_ name: String) async {
        guard var person = people[name.lowercased()] else { return }
        let time = now()
        person.lastSeen = time
        people[name.lowercased()] = person
        guard time.timeIntervalSince(persistedSeen[person.name] ?? .distantPast) >= 60 else { return }
        persistedSeen[person.name] = time
        let stored = person.name
        try? await database.writer.perform { connection in
            try connection.run("UPDATE people SET last_seen = ? WHERE name = ?", [.real(time.timeIntervalSince1970), .text(stored)])
        }
    }

    private func isLastOwner(_ person: Person) -> Bool {
        !people.values.contains { $0.role == .owner && !$0.disabled && $0.name != person.name }
    }

    private func persistInsert(_ person: Person) async throws {
        do {
            try await database.writer.perform { connection in
                try connection.run("INSERT INTO people (name, name_fold, role, password_hash, disabled, created_at, last_seen) VALUES (?, ?, ?, ?, 0, ?, ?)",
                                   [.text(person.name), .text(person.name.lowercased()), .text(person.role.rawValue),
                                    person.passwordHash.map { .text($0) } ?? .null, .real(person.created.timeIntervalSince1970),
                                    person.lastSeen.map { .real($0.timeIntervalSince1970) } ?? .null])
            }
        } catch {
            people[person.name.lowercased()] = nil
            throw error
        }
    }

    private func persistInvitation(tokenHash: String, person: String, expires: Date, replacing: Bool) async throws {
        try await database.writer.perform { connection in
            try connection.transaction {
                if replacing { try connection.run("DELETE FROM invitations WHERE person = ?", [.text(person)]) }
                try connection.run("INSERT INTO invitations (token_hash, person, expires_at) VALUES (?, ?, ?)",
                                   [.text(tokenHash), .text(person), .real(expires.timeIntervalSince1970)])
            }
        }
    }
}
