import Foundation
import HTTPClient
import HTTPServer
import OpenMarketCore

/// `/products/import…`: a spreadsheet previewed, then applied row by row.
///
/// Handlers: `ImportPages.swift`, `ImportApply.swift`, `ImportRendering.swift`. `PanelApp` builds it
/// with the dependencies below.
struct ImportController: Sendable, PageHandling, CatalogWriting {
    let pages: Pages
    let configuration: PanelConfiguration
    let client: OpenMarketClient
    let catalog: CatalogService
    /// Every product write: the API, the copy, the activity row, the trash keep.
    let writer: ProductWriter
    let staging: StagedUploads
    let spoolDirectory: URL
    let vendor: VendorIdentity
    let imports: ImportService
    let imageStager: ImageStager
    /// The panel's client to the outside, for photos named by URL.
    let outbound: HTTPClient
}
