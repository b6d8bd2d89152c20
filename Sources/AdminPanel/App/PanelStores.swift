import Foundation

/// The panel's database and the stores over its tables, opened once at start.
struct PanelStores: Sendable {
    let database: PanelDatabase
    let sessions: SessionStore
    let people: PeopleStore
    let activity: ActivityLog
    /// Spreadsheet imports: previews, their photos and each row's outcome.
    let imports: ImportService
    /// Scheduled discounts (Sales/).
    let sales: SaleStore
    /// The local catalog copy's tables.
    let catalog: CatalogDatabase
    /// Deleted products kept before the API deletes them, and drafts.
    let trash: TrashStore
    let drafts: DraftStore
    /// The folder under DATA holding the trash's and drafts' files.
    let safetyFiles: SafetyFiles
    /// Both signed with the database's key.
    let formTokens: FormTokens
    let flashCookie: FlashCookie

    /// Opens every store; `feed` hears each activity row and sale change.
    static func open(_ configuration: PanelConfiguration, feed: ProductChangeFeed) throws -> PanelStores {
        let database = try PanelDatabase(directory: configuration.dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("openmarket-admin-data-\(SecureToken.make(byteCount: 12))", isDirectory: true))
        let activity = ActivityLog(database: database, now: configuration.now, recorded: feed.recorded)
        let imports: ImportService
        do { imports = try ImportService(database: database) } catch {
            throw PanelStartupError("the imports in \(database.database.path) cannot be opened: \(error)")
        }
        let sessions: SessionStore, people: PeopleStore, formTokens: FormTokens, flashCookie: FlashCookie
        do {
            sessions = try SessionStore(database: database, now: configuration.now)
            people = try PeopleStore(database: database, now: configuration.now)
            let key = try database.signingKey()
            formTokens = FormTokens(key: key)
            flashCookie = FlashCookie(key: key)
        } catch {
            throw PanelStartupError("\(database.database.path) cannot be read: \(error)")
        }
        let catalog: CatalogDatabase
        do {
            catalog = try CatalogDatabase(database.writer)
        } catch {
            throw PanelStartupError("the catalog copy in \(database.database.path) cannot be opened: \(error)")
        }
        let trash: TrashStore, drafts: DraftStore
        do {
            trash = try TrashStore(database.writer)
            drafts = try DraftStore(database.writer)
            try ActivityLog.createRunsTable(database.writer)
        } catch {
            throw PanelStartupError("the trash and drafts in \(database.database.path) cannot be opened: \(error)")
        }
        let sales: SaleStore
        do {
            sales = try SaleStore(database: database, recorded: feed.recorded)
        } catch {
            throw PanelStartupError("the scheduled discounts in \(database.database.path) cannot be opened: \(error)")
        }
        return PanelStores(database: database, sessions: sessions, people: people, activity: activity, imports: imports,
                           sales: sales, catalog: catalog, trash: trash, drafts: drafts,
                           safetyFiles: SafetyFiles(root: URL(fileURLWithPath: database.database.path).deletingLastPathComponent()),
                           formTokens: formTokens, flashCookie: flashCookie)
    }

}
