import HTTPClient
import OpenMarketCore

/// The API side of the panel: the client and its transport, the dialect spoken, whose products
/// these are, the local copy kept current, and the one door every product write passes.
struct Upstream: Sendable {
    let client: OpenMarketClient
    let transport: any HTTPTransport
    let dialect: any PanelDialect
    let vendor: VendorIdentity
    /// The local catalog copy (sorted and filtered views, CSV) and what keeps it current.
    let catalog: CatalogSync
    let catalogService: CatalogService
    let writer: ProductWriter
}
