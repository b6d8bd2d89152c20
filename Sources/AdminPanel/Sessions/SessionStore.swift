import Foundation
import SQLiteStore

/// Signed-in sessions, kept in `panel.sqlite` (so they survive a restart) and mirrored in memory
/// (so a request costs no database read). The cookie holds a random 256-bit id; the store keeps
/// only its SHA-256. Sessions are made only by a valid credential (sign-in, setup, invitation),
/// so nothing anonymous can add a row or push one out; they end when idle 12 h, 30 days after
/// sign-in, or when revoked.
actor SessionStore {
    static let cookieName = "om_session"

    struct Record: Sendable, Equatable {
        var idHash: String
        var person: String
        var created: Date
        var lastSeen: Date
        var address: String
        var browser: String
    }

    private var records: [String: Record] = [:]
    /// When each session's last-seen time was last written (writes are at most once a minute).
    private var persistedSeen: [String: Date] = [:]
    private let database: PanelDatabase
    let idleLimit: TimeInterval
    let absoluteLimit: TimeInterval
    private let now: @Sendable () -> Date

    init(database: PanelDatabase, idleLimit: TimeInterval = 12 * 3600, absoluteLimit: TimeInterval = 30 * 86_400,
         now: @escaping @Sendable () -> Date) throws {
        self.database = database
        self.idleLimit = idleLimit
        self.absoluteLimit = absoluteLimit
        self.now = now
        let loaded = try database.writer.performNow { connection in
            var rows: [Record] = []
            try connection.query("SELECT id_hash, person, created_at, last_seen, address, browser FROM sessions") { row in
                rows.append(Record(idHash: row.string(0), person: row.string(1),
                                   created: Date(timeIntervalSince1970: row.double(2)),
                                   lastSeen: Date(timeIntervalSince1970: row.double(3)),
                                   address: row.string(4), browser: row.string(5)))
            }
            return rows
        }
        for record in loaded {
            records[record.idHash] = record
            persistedSeen[record.idHash] = record.lastSeen
        }
    }

    /// How many times a session was looked up: the request context makes it one per request.
    private(set) var lookups = 0

    /// The live session of a cookie value, its last-seen time moved to now; nil when unknown,
    /// expired (then removed) or malformed.
    func find(cookie: String?, address: String) async -> Record? {
        lookups += 1
        guard let cookie, PanelCrypto.isToken(cookie) else { return nil }
        let hash = PanelCrypto.sha256Hex(cookie)
        guard var record = records[hash] else { return nil }
        let time = now()
        guard isAlive(record, at: time) else {
            await remove([hash])
            return nil
        }
        record.lastSeen = time
        record.address = address
        records[hash] = record
        if time.timeIntervalSince(persistedSeen[hash] ?? .distantPast) >= 60 {
            persistedSeen[hash] = time
            try? await database.writer.perform { connection in
                try connection.run("UPDATE sessions SET last_seen = ?, address = ? WHERE id_hash = ?",
                                   [.real(time.timeIntervalSince1970), .text(address), .text(hash)])
            }
        }
        return record
    }

    /// A new session for `person`; answers the cookie value (the only copy of the id).
    func create(person: String, address: String, browser: String) async throws -> String {
        let id = SecureToken.make()
        let hash = PanelCrypto.sha256Hex(id)
        let time = now()
        let record = Record(idHash: hash, person: person, created: time, lastSeen: time,
                            address: String(address.prefix(64)), browser: Self.browserName(browser))
        try await database.writer.perform { connection in
            try connection.run("INSERT INTO sessions (id_hash, person, created_at, last_seen, address, browser) VALUES (?, ?, ?, ?, ?, ?)",
                               [.text(hash), .text(record.person), .real(time.timeIntervalSince1970),
                                .real(time.timeIntervalSince1970), .text(record.address), .text(record.browser)])
        }
        records[hash] = record
        persistedSeen[hash] = time
        return id
    }

    func sessions(of person: String) -> [Record] {
        let time = now()
        return records.values.filter { $0.person == person && isAlive($0, at: time) }.sorted { $0.lastSeen > $1.lastSeen }
    }

    /// The live session with this hash (nil once signed out, revoked or expired); its
    /// last-seen time stays as it is (an open event stream is not a visit).
    func record(hash: String) -> Record? {
        guard let record = records[hash], isAlive(record, at: now()) else { return nil }
        return record
    }

    func revoke(_ hash: String) async {
        await remove([hash])
    }

    /// Signs `person` out everywhere, or everywhere but `keeping`; answers how many ended.
    @discardableResult
    func revokeAll(of person: String, keeping: String? = nil) async -> Int {
        let hashes = records.values.filter { $0.person == person && $0.idHash != keeping }.map(\.idHash)
        await remove(hashes)
        return hashes.count
    }

    /// Drops expired sessions (the sweeper calls this every few minutes).
    func purgeExpired() async {
        let time = now()
        await remove(records.values.filter { !isAlive($0, at: time) }.map(\.idHash))
    }

    var count: Int { records.count }

    private func isAlive(_ record: Record, at time: Date) -> Bool {
        time.timeIntervalSince(record.lastSeen) < idleLimit && time.timeIntervalSince(record.created) < absoluteLimit
    }

    private func remove(_ hashes: [String]) async {
        guard !hashes.isEmpty else { return }
        for hash in hashes {
            records[hash] = nil
            persistedSeen[hash] = nil
        }
        do {
            try await database.writer.perform { connection in
                try connection.transaction {
                    for hash in hashes { try connection.run("DELETE FROM sessions WHERE id_hash = ?", [.text(hash)]) }
                }
            }
        } catch {
            FileHandle.standardError.write(Data("openmarket-admin: ended sessions could not be removed from panel.sqlite: \(error)\n".utf8))
        }
    }

    /// "Chrome · Linux" from a User-Agent, for the sessions list (the raw header is long and
    /// mostly noise; a middle dot, not "on", reads the same on a Korean and an English page);
    /// unknown agents show their first 60 characters.
    static func browserName(_ userAgent: String) -> String {
        let agent = userAgent
        let browser = agent.contains("Edg/") ? "Edge" : agent.contains("Firefox/") ? "Firefox"
            : (agent.contains("Chrome/") || agent.contains("Chromium/")) ? "Chrome" : agent.contains("Safari/") ? "Safari" : nil
        let system = agent.contains("Android") ? "Android" : (agent.contains("iPhone") || agent.contains("iPad")) ? "iOS"
            : agent.contains("Windows") ? "Windows" : agent.contains("Mac OS X") ? "macOS" : agent.contains("Linux") ? "Linux" : nil
        if let browser, let system { return "\(browser) · \(system)" }
        if let browser { return browser }
        let cleaned = String(agent.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
        return cleaned.isEmpty ? unknownBrowser : String(cleaned.prefix(60))
    }

    /// What a session without a readable User-Agent is stored as; pages show it in their own
    /// language (`account_browser_unknown`).
    static let unknownBrowser = "unknown browser"
}
