import Foundation
import HTMLTemplates
import HTTPClient
import HTTPServer
import OpenMarketCore

/// The wiring of the panel: builds, once at start, the stores, the upload folders, the upstream
/// side and the page plumbing from the configuration, then the controllers (`PanelControllers`),
/// and the router (`Routes.swift`: the routes each controller registers, inside the guards). No
/// handler lives here.
final class PanelApp: Sendable {
    let configuration: PanelConfiguration
    /// The database and the stores over its tables.
    let stores: PanelStores
    /// The API client, the local catalog copy, and the product writer.
    let upstream: Upstream
    /// This process's folder under DATA/uploads.
    let uploads: UploadFolders
    /// Fills each request's context (`PanelApp.accessMiddleware`).
    let visitors: Visitors
    /// The page plumbing every controller that renders pages holds.
    let pages: Pages
    let mediaCache: MediaCache
    /// One upstream fetch per image at a time (see `mediaFile`).
    let mediaFetches = SingleFlight<MediaController.MediaFetch>()
    /// Wrong vendor passwords: per person (first key) and panel-wide (second).
    let deleteGate: AttemptGate
    /// The one-time setup link's token, while sign-in is on and no owner exists (printed at start).
    let setupToken: String?
    let bulkGauge = ConcurrencyGauge()
    /// What starts and ends scheduled discounts (Sales/).
    let saleScheduler: SaleScheduler
    /// Everyone's open `/events` streams (Live/).
    let live: LiveStreams
    let hostAllowList: HostAllowList
    /// The controllers, one per concept; each registers its routes (`register(on:)`).
    let controllers: PanelControllers
    /// The port the panel listens on (known after binding; port 0 picks one).
    let listeningPort = ListeningPort()

    init(configuration: PanelConfiguration, transport: any HTTPTransport) throws {
        self.configuration = configuration
        let client = OpenMarketClient(configuration: configuration.api, transport: transport)
        let assets = try PageAssets.shared(directory: configuration.templatesDirectory, dialect: configuration.api.dialect)
        let stringCatalogs = assets.catalogs
        let base = configuration.api.baseURL
        let apiHost = (base.host ?? "?") + (base.port.map { ":\($0)" } ?? "")
        let renderer = PageRenderer(assets: assets, version: configuration.version, apiHost: apiHost)
        let media = MediaLinks(apiBaseURL: base, extraOrigins: configuration.mediaOrigins)
        let presenter = ProductPresenter(media: media)
        uploads = try UploadFolders.claim(configuration)
        mediaCache = MediaCache(maxBytes: configuration.mediaCacheBytes)
        let dialect = PanelDialects.chosen(for: configuration.api.dialect)
        let vendor = VendorIdentity(id: configuration.vendorID, everyProduct: !dialect.hasVendor)
        do {
            hostAllowList = try HostAllowList(bindHost: configuration.host, allowedHosts: configuration.allowedHosts)
        } catch {
            throw PanelStartupError(error.description)
        }
        let copy = CatalogCopy()
        live = LiveStreams(now: configuration.now)
        let feed = ProductChangeFeed(streams: live, copy: copy, now: configuration.now) { product in
            LiveProduct(product, presenter: presenter, catalogs: stringCatalogs)
        }
        stores = try PanelStores.open(configuration, feed: feed)
        let hasher = PasswordHasher(strength: configuration.fastPasswordHashesForTests ? .minimum : .interactive)
        let signInGate = AttemptGate(first: ReservingLimiter(limit: configuration.signInNameLimit, window: configuration.signInWindow),
                                     second: ReservingLimiter(limit: configuration.signInAddressLimit, window: configuration.signInWindow),
                                     now: configuration.now)
        deleteGate = AttemptGate(first: ReservingLimiter(limit: configuration.deleteAttemptLimit, window: configuration.deleteAttemptWindow),
                                 second: ReservingLimiter(limit: configuration.deleteAttemptPanelLimit, window: configuration.deleteAttemptWindow),
                                 now: configuration.now)
        setupToken = configuration.signIn && !stores.people.hadOwnerAtStart ? SecureToken.make(byteCount: 16) : nil
        if let stored = try? stores.catalog.loadAll() { copy.load(stored.products, syncedAt: stored.syncedAt) }
        let catalog = CatalogSync(client: client, copy: copy, database: stores.catalog,
                                  interval: configuration.catalogSyncInterval, now: configuration.now, feed: feed)
        let trashKeeper = TrashKeeper(configuration: configuration, client: client, media: media, mediaCache: mediaCache,
                                      transport: transport, trash: stores.trash, safetyFiles: stores.safetyFiles)
        let catalogService = CatalogService(sync: catalog, database: stores.catalog,
                                            maxAge: configuration.catalogMaxAge, now: configuration.now)
        let writer = ProductWriter(client: client, catalog: catalogService, activity: stores.activity,
                                   vendor: vendor, keeper: trashKeeper.keepThenDelete,
                                   mediaEviction: MediaEviction(media: media, mediaCache: mediaCache), dialect: dialect)
        upstream = Upstream(client: client, transport: transport, dialect: dialect, vendor: vendor, catalog: catalog,
                            catalogService: catalogService, writer: writer)
        saleScheduler = SaleScheduler(store: stores.sales, api: writer, now: configuration.now)
        let staticFiles: StaticFiles
        do {
            staticFiles = try StaticFiles(root: configuration.publicDirectory, cacheControl: "public, max-age=300")
        } catch {
            throw PanelStartupError("the public folder \(configuration.publicDirectory.path) cannot be served: \(error)")
        }
        visitors = Visitors(signIn: configuration.signIn, sessions: stores.sessions, people: stores.people,
                            stringCatalogs: stringCatalogs, formTokens: stores.formTokens, flashCookie: stores.flashCookie)
        pages = Pages(configuration: configuration, renderer: renderer, flashCookie: stores.flashCookie)
        controllers = try PanelControllers(.init(
            configuration: configuration, pages: pages, stores: stores, upstream: upstream, uploads: uploads,
            presenter: presenter, media: media, mediaCache: mediaCache, mediaFetches: mediaFetches,
            trashKeeper: trashKeeper, deleteGate: deleteGate, signInGate: signInGate, hasher: hasher,
            setupToken: setupToken, bulkGauge: bulkGauge, saleScheduler: saleScheduler, live: live,
            hostAllowList: hostAllowList, listeningPort: listeningPort, staticFiles: staticFiles))
    }
}
