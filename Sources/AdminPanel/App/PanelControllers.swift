import HTTPClient
import HTTPServer
import OpenMarketCore

/// The controllers, one per concept, each built with the dependencies it uses; each registers
/// its routes (`register(on:)`), which reach it through `PanelApp.controllers`.
///
/// A class: a route reaches its controller through a key path (`\.controllers.catalogController`),
/// and projecting one through a struct of all the controllers copied the whole struct (every
/// controller retained and released) on every request, about 80k instructions.
final class PanelControllers: Sendable {
    let mediaController: MediaController
    let healthController: HealthController
    let trashKeeper: TrashKeeper
    let saleSections: SaleSections
    let activityController: ActivityController
    let sessionController: SessionController
    let peopleController: PeopleController
    let accountController: AccountController
    let productController: ProductController
    let productDeleteController: ProductDeleteController
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

    /// What the controllers share, built once at start by `PanelApp`.
    struct Parts {
        let configuration: PanelConfiguration
        let pages: Pages
        let stores: PanelStores
        let upstream: Upstream
        let uploads: UploadFolders
        let presenter: ProductPresenter
        let media: MediaLinks
        let mediaCache: MediaCache
        let mediaFetches: SingleFlight<MediaController.MediaFetch>
        let trashKeeper: TrashKeeper
        let deleteGate: AttemptGate
        let signInGate: AttemptGate
        let hasher: PasswordHasher
        let setupToken: String?
        let bulkGauge: ConcurrencyGauge
        let saleScheduler: SaleScheduler
        let live: LiveStreams
        let hostAllowList: HostAllowList
        let listeningPort: ListeningPort
        let staticFiles: StaticFiles
    }

    init(_ parts: Parts) throws {
        let configuration = parts.configuration, pages = parts.pages, stores = parts.stores
        let client = parts.upstream.client, transport = parts.upstream.transport, dialect = parts.upstream.dialect
        let writer = parts.upstream.writer
        let staging = parts.uploads.staging
        let presenter = parts.presenter, media = parts.media, deleteGate = parts.deleteGate
        let safetyFiles = stores.safetyFiles, activity = stores.activity, people = stores.people, sessions = stores.sessions
        trashKeeper = parts.trashKeeper
        mediaController = MediaController(pages: pages, transport: transport,
                                          media: media, staging: staging, mediaCache: parts.mediaCache,
                                          mediaFetches: parts.mediaFetches)
        staticController = StaticController(configuration: configuration, staticFiles: parts.staticFiles,
                                            hostAllowList: parts.hostAllowList, listeningPort: parts.listeningPort)
        healthController = HealthController(configuration: configuration,
                                            apiHealth: APIHealthProbe(client: client, maxAge: APIHealthProbe.defaultMaxAge,
                                                                      now: configuration.now))
        let imageStager = ImageStager(staging: staging, spoolDirectory: parts.uploads.spoolDirectory,
                                      photoWorkers: ImageStager.makePhotoWorkers())
        saleSections = SaleSections(configuration: configuration, sales: stores.sales, dialect: dialect,
                                    scheduler: parts.saleScheduler)
        activityController = ActivityController(pages: pages, people: people,
                                                upstream: parts.upstream, activity: activity, sales: stores.sales)
        let draftSaving = DraftSaving(configuration: configuration, staging: staging, drafts: stores.drafts,
                                      safetyFiles: safetyFiles)
        let accounts = Accounts(sessions: sessions, people: people, activity: activity)
        sessionController = SessionController(pages: pages, accounts: accounts, hasher: parts.hasher,
                                              signInGate: parts.signInGate)
        peopleController = PeopleController(pages: pages, accounts: accounts, hasher: parts.hasher,
                                            setupToken: parts.setupToken, listeningPort: parts.listeningPort)
        accountController = AccountController(pages: pages, accounts: accounts, hasher: parts.hasher,
                                              signInGate: parts.signInGate, dialect: dialect)
        productController = ProductController(pages: pages, upstream: parts.upstream, presenter: presenter,
                                              history: activityController.activityRows, people: people,
                                              saleSections: saleSections)
        productDeleteController = ProductDeleteController(pages: pages, upstream: parts.upstream, presenter: presenter,
                                                          deleteGate: deleteGate, people: people)
        productFormController = ProductFormController(pages: pages, upstream: parts.upstream, presenter: presenter,
                                                      deleteGate: deleteGate, imageStager: imageStager, draftSaving: draftSaving)
        draftController = DraftController(pages: pages, staging: staging, drafts: stores.drafts,
                                          safetyFiles: safetyFiles,
                                          registerPage: { [productFormController] in try productFormController.registerPage($0, context: $1, status: $2) })
        catalogController = CatalogController(pages: pages, upstream: parts.upstream,
                                              presenter: presenter, newestCheck: NewestProductCheck(client: client, maxAge: 5),
                                              saleSections: saleSections,
                                              workbook: CatalogWorkbook(directory: try parts.uploads.scratch.subfolder("exports")))
        bulkController = BulkController(pages: pages, upstream: parts.upstream, deleteGate: deleteGate, bulkGauge: parts.bulkGauge,
                                        listPage: { [catalogController] in try await catalogController.listPage($0, $1, refusal: $2) },
                                        saleSections: saleSections)
        sheetController = SheetController(pages: pages, upstream: parts.upstream, bulkGauge: parts.bulkGauge)
        importController = ImportController(pages: pages, upstream: parts.upstream, uploads: parts.uploads,
                                            imports: stores.imports,
                                            imageStager: imageStager,
                                            outbound: Self.outboundClient(transport: transport, configuration: configuration))
        trashController = TrashController(pages: pages, writer: writer, trash: stores.trash,
                                          safetyFiles: safetyFiles, restores: KeyedQueue<Int>())
        revertController = RevertController(pages: pages, upstream: parts.upstream, presenter: presenter,
                                            deleteGate: deleteGate, activity: activity, reverts: KeyedQueue<String>())
        liveController = LiveController(live: parts.live, sessions: sessions, people: people)
        salesController = SalesController(pages: pages, upstream: parts.upstream,
                                          saleScheduler: parts.saleScheduler, activity: activity,
                                          detailPage: { [productController] in try await productController.detailPage($0, $1, saleForm: $2) },
                                          saleSections: saleSections)
    }

    /// The panel's one client to the outside: the API transport's own, or (a transport given
    /// by tests) one with the same trust.
    private static func outboundClient(transport: any HTTPTransport, configuration: PanelConfiguration) -> HTTPClient {
        if let pooled = transport as? PooledTransport { return pooled.client }
        return (try? PooledTransport.client(trustedCertificateFile: configuration.apiCertificateFile))
            ?? PooledTransport(maxConnectionsPerHost: 64).client
    }
}
