import Foundation
import HTMLTemplates
import HTTPClient
import HTTPServer
import OpenMarketCore

/// The wiring of the panel: builds the stores and services from the configuration, then one
/// controller per concept with the dependencies it uses, and the router (`Routes.swift`: the
/// routes each controller registers, inside the guards). No handler lives here.
final class PanelApp: Sendable {
    let configuration: PanelConfiguration
    let client: OpenMarketClient
    let transport: any HTTPTransport
    let renderer: PageRenderer
    let stringCatalogs: StringCatalogs
    let presenter: ProductPresenter
    let media: MediaLinks
    let sessions: SessionStore
    let people: PeopleStore
    /// Wrong vendor passwords: per person (first key) and panel-wide (second).
    let deleteGate: AttemptGate
    /// The one-time setup link's token, while sign-in is on and no owner exists (printed at start).
    let setupToken: String?
    let staging: StagedUploads
    /// This process's folder under DATA/uploads; large uploads are spooled to its `spool`.
    let scratch: ScratchFolder
    let spoolDirectory: URL
    let mediaCache: MediaCache
    /// One upstream fetch per image at a time (see `mediaFile`).
    let mediaFetches = SingleFlight<MediaController.MediaFetch>()
    let vendor: VendorIdentity
    /// The local catalog copy (sorted and filtered views, CSV) and what keeps it current.
    let catalog: CatalogSync
    let bulkGauge = ConcurrencyGauge()
    let database: PanelDatabase
    let activity: ActivityLog
    /// Spreadsheet imports: previews, their photos and each row's outcome.
    let imports: ImportService
    /// Scheduled discounts and what starts and ends them (Sales/).
    let sales: SaleStore
    let saleScheduler: SaleScheduler
    /// Everyone's open `/events` streams (Live/).
    let live: LiveStreams
    let hostAllowList: HostAllowList
    /// Safety nets (issue 24): deleted products kept before the API deletes them, drafts, and
    /// the folder under DATA holding their files; restores and reverts of one item run one at a time.
    let trash: TrashStore
    let drafts: DraftStore
    let reverts = KeyedQueue<String>()
    /// Fills each request's context (`PanelApp.guarded`).
    let visitors: Visitors
    /// The page plumbing every controller that renders pages holds.
    let pages: Pages
    /// The controllers, one per concept; each registers its routes (`register(on:)`).
    let mediaController: MediaController
    let healthController: HealthController
    let trashKeeper: TrashKeeper
    let saleSections: SaleSections
    let activityController: ActivityController
    let sessionController: SessionController
    let peopleController: PeopleController
    let productController: ProductController
    let productFormController: ProductFormController
    let draftController: DraftController
    let catalogController: CatalogController
    let bulkController: BulkController
    let sheetController: SheetController
    let importController: ImportController
    let trashController: TrashController
    let revertController: RevertController
    let salesController: SalesController
    let staticController: StaticController
    let liveController: LiveController
    /// The port the panel listens on (known after binding; port 0 picks one).
    let listeningPort = ListeningPort()

    init(configuration: PanelConfiguration, transport: any HTTPTransport) throws {
        // Parts only the controllers use: built here, kept by them.
        let formTokens: FormTokens
        let flashCookie: FlashCookie
        let hasher: PasswordHasher
        let signInGate: AttemptGate
        let staticFiles: StaticFiles
        let newestCheck: NewestProductCheck
        let apiHealth: APIHealthProbe
        let safetyFiles: SafetyFiles
        let restores = KeyedQueue<Int>()
        let imageStager: ImageStager
        let draftSaving: DraftSaving
        let catalogDatabase: CatalogDatabase
        self.configuration = configuration
        self.transport = transport
        client = OpenMarketClient(configuration: configuration.api, transport: transport)
        let templates: TemplateSet
        do {
            templates = try TemplateSet(directory: configuration.templatesDirectory)
        } catch {
            throw PanelStartupError("templates in \(configuration.templatesDirectory.path) could not be loaded: \(error)")
        }
        stringCatalogs = try StringCatalogs(directory: configuration.templatesDirectory.appendingPathComponent("strings"))
            .forDialect(configuration.api.dialect)
        let base = configuration.api.baseURL
        let apiHost = (base.host ?? "?") + (base.port.map { ":\($0)" } ?? "")
        renderer = try PageRenderer(templates: templates, version: configuration.version, apiHost: apiHost, catalogs: stringCatalogs)
        media = MediaLinks(apiBaseURL: base, extraOrigins: configuration.mediaOrigins)
        presenter = ProductPresenter(media: media)
        // Without DATA (tests), one shared parent in the temporary directory: each panel owns a
        // locked folder there, and sweeps only the folders of dead processes.
        let uploads = configuration.dataDirectory?.appendingPathComponent("uploads", isDirectory: true)
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-admin-uploads", isDirectory: true)
        do {
            scratch = try ScratchFolder.claim(in: uploads)
            spoolDirectory = try scratch.subfolder("spool")
            staging = try StagedUploads(directory: scratch.subfolder("staging"),
                                        lifetime: configuration.stagingLifetime, now: configuration.now)
        } catch {
            throw PanelStartupError("the uploads folder \(uploads.path) cannot be used: \(error)")
        }
        mediaCache = MediaCache(maxBytes: configuration.mediaCacheBytes)
        let dialect = PanelDialects.chosen(for: configuration.api.dialect)
        vendor = VendorIdentity(id: configuration.vendorID, everyProduct: !dialect.hasVendor)
        do {
            hostAllowList = try HostAllowList(bindHost: configuration.host, allowedHosts: configuration.allowedHosts)
        } catch {
            throw PanelStartupError(error.description)
        }
        database = try PanelDatabase(directory: configuration.dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("openmarket-admin-data-\(SecureToken.make(byteCount: 12))", isDirectory: true))
        let copy = CatalogCopy()
        live = LiveStreams(now: configuration.now)
        let feed = ProductChangeFeed(streams: live, copy: copy, now: configuration.now) { [presenter, stringCatalogs] product in
            LiveProduct(product, presenter: presenter, catalogs: stringCatalogs)
        }
        activity = ActivityLog(database: database, now: configuration.now, recorded: feed.recorded)
        do { imports = try ImportService(database: database) } catch {
            throw PanelStartupError("the imports in \(database.database.path) cannot be opened: \(error)")
        }
        do {
            sessions = try SessionStore(database: database, now: configuration.now)
            people = try PeopleStore(database: database, now: configuration.now)
            let key = try database.signingKey()
            formTokens = FormTokens(key: key)
            flashCookie = FlashCookie(key: key)
        } catch {
            throw PanelStartupError("\(database.database.path) cannot be read: \(error)")
        }
        hasher = PasswordHasher(strength: configuration.fastPasswordHashesForTests ? .minimum : .interactive)
        signInGate = AttemptGate(first: ReservingLimiter(limit: configuration.signInNameLimit, window: configuration.signInWindow),
                                 second: ReservingLimiter(limit: configuration.signInAddressLimit, window: configuration.signInWindow),
                                 now: configuration.now)
        deleteGate = AttemptGate(first: ReservingLimiter(limit: configuration.deleteAttemptLimit, window: configuration.deleteAttemptWindow),
                                 second: ReservingLimiter(limit: configuration.deleteAttemptPanelLimit, window: configuration.deleteAttemptWindow),
                                 now: configuration.now)
        setupToken = configuration.signIn && !people.hadOwnerAtStart ? SecureToken.make(byteCount: 16) : nil
        do {
            catalogDatabase = try CatalogDatabase(database.writer)
        } catch {
            throw PanelStartupError("the catalog copy in \(database.database.path) cannot be opened: \(error)")
        }
        do {
            trash = try TrashStore(database.writer)
            drafts = try DraftStore(database.writer)
            try ActivityLog.createRunsTable(database.writer)
        } catch {
            throw PanelStartupError("the trash and drafts in \(database.database.path) cannot be opened: \(error)")
        }
        safetyFiles = SafetyFiles(root: URL(fileURLWithPath: database.database.path).deletingLastPathComponent())
        if let stored = try? catalogDatabase.loadAll() { copy.load(stored.products, syncedAt: stored.syncedAt) }
        catalog = CatalogSync(client: client, copy: copy, database: catalogDatabase,
                              interval: configuration.catalogSyncInterval, now: configuration.now, feed: feed)
        newestCheck = NewestProductCheck(client: client, maxAge: 5)
        apiHealth = APIHealthProbe(client: client, maxAge: APIHealthProbe.defaultMaxAge, now: configuration.now)
        do {
            sales = try SaleStore(database: database, recorded: feed.recorded)
        } catch {
            throw PanelStartupError("the scheduled discounts in \(database.database.path) cannot be opened: \(error)")
        }
        trashKeeper = TrashKeeper(configuration: configuration, client: client, media: media, mediaCache: mediaCache,
                                  transport: transport, trash: trash, safetyFiles: safetyFiles)
        let catalogService = CatalogService(sync: catalog, database: catalogDatabase, now: configuration.now)
        let writer = ProductWriter(client: client, catalog: catalogService, activity: activity,
                                   vendor: vendor, keeper: trashKeeper.keepThenDelete, dialect: dialect)
        saleScheduler = SaleScheduler(store: sales, api: writer, now: configuration.now)
        do {
            staticFiles = try StaticFiles(root: configuration.publicDirectory, cacheControl: "public, max-age=300")
        } catch {
            throw PanelStartupError("the public folder \(configuration.publicDirectory.path) cannot be served: \(error)")
        }
        visitors = Visitors(signIn: configuration.signIn, sessions: sessions, people: people,
                            stringCatalogs: stringCatalogs, formTokens: formTokens, flashCookie: flashCookie)
        pages = Pages(configuration: configuration, renderer: renderer, flashCookie: flashCookie)
        mediaController = MediaController(pages: pages, configuration: configuration, transport: transport,
                                          media: media, staging: staging, mediaCache: mediaCache,
                                          mediaFetches: mediaFetches)
        staticController = StaticController(configuration: configuration, staticFiles: staticFiles,
                                            hostAllowList: hostAllowList, listeningPort: listeningPort)
        healthController = HealthController(configuration: configuration, apiHealth: apiHealth)
        imageStager = ImageStager(staging: staging, photoWorkers: ImageStager.makePhotoWorkers())
        saleSections = SaleSections(configuration: configuration, sales: sales, dialect: dialect)
        activityController = ActivityController(pages: pages, configuration: configuration, people: people,
                                                catalog: catalogService, activity: activity, dialect: dialect, sales: sales)
        draftSaving = DraftSaving(pages: pages, configuration: configuration, staging: staging, drafts: drafts,
                                  safetyFiles: safetyFiles)
        sessionController = SessionController(pages: pages, configuration: configuration, sessions: sessions,
                                              people: people, hasher: hasher, signInGate: signInGate,
                                              activity: activity)
        peopleController = PeopleController(pages: pages, configuration: configuration, sessions: sessions,
                                            people: people, hasher: hasher, signInGate: signInGate,
                                            setupToken: setupToken, activity: activity, dialect: dialect, listeningPort: listeningPort,
                                            sessionController: sessionController)
        productController = ProductController(pages: pages, configuration: configuration, client: client,
                                              catalog: catalogService, writer: writer, presenter: presenter,
                                              deleteGate: deleteGate, vendor: vendor, activityController: activityController,
                                              saleSections: saleSections, trashKeeper: trashKeeper,
                                              mediaController: mediaController)
        productFormController = ProductFormController(pages: pages, configuration: configuration, client: client,
                                                      catalog: catalogService, writer: writer,
                                                      transport: transport, presenter: presenter, media: media,
                                                      deleteGate: deleteGate, staging: staging,
                                                      spoolDirectory: spoolDirectory, vendor: vendor,
                                                      imageStager: imageStager, draftSaving: draftSaving)
        draftController = DraftController(pages: pages, configuration: configuration, staging: staging, drafts: drafts,
                                          safetyFiles: safetyFiles, productFormController: productFormController)
        catalogController = CatalogController(pages: pages, configuration: configuration, client: client,
                                              presenter: presenter, vendor: vendor, catalog: catalogService,
                                              newestCheck: newestCheck, saleSections: saleSections,
                                              workbook: CatalogWorkbook(directory: try scratch.subfolder("exports")))
        bulkController = BulkController(pages: pages, configuration: configuration, catalog: catalogService, writer: writer,
                                        deleteGate: deleteGate, vendor: vendor, bulkGauge: bulkGauge,
                                        activity: activity, saleScheduler: saleScheduler,
                                        catalogController: catalogController, saleSections: saleSections,
                                        mediaController: mediaController)
        sheetController = SheetController(pages: pages, configuration: configuration, client: client, catalog: catalogService,
                                          writer: writer, vendor: vendor, bulkGauge: bulkGauge)
        importController = ImportController(pages: pages, configuration: configuration, client: client,
                                            catalog: catalogService, writer: writer, staging: staging,
                                            spoolDirectory: spoolDirectory, vendor: vendor, imports: imports,
                                            imageStager: imageStager,
                                            outbound: Self.outboundClient(transport: transport, configuration: configuration))
        trashController = TrashController(pages: pages, configuration: configuration, writer: writer, trash: trash,
                                          safetyFiles: safetyFiles, restores: restores)
        revertController = RevertController(pages: pages, configuration: configuration, client: client,
                                            catalog: catalogService, writer: writer, presenter: presenter,
                                            deleteGate: deleteGate, activity: activity, reverts: reverts)
        liveController = LiveController(live: live, sessions: sessions, people: people)
        salesController = SalesController(pages: pages, configuration: configuration, client: client, vendor: vendor,
                                          sales: sales, saleScheduler: saleScheduler, activity: activity,
                                          productController: productController, saleSections: saleSections)
    }

    /// The panel's one client to the outside: the API transport's own, or (a transport given
    /// by tests) one with the same trust.
    private static func outboundClient(transport: any HTTPTransport, configuration: PanelConfiguration) -> HTTPClient {
        if let pooled = transport as? PooledTransport { return pooled.client }
        return (try? PooledTransport.client(trustedCertificateFile: configuration.apiCertificateFile))
            ?? PooledTransport(maxConnectionsPerHost: 64).client
    }
}
