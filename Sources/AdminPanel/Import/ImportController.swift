import Foundation
import HTTPClient
import HTTPServer
import OpenMarketCore

/// `/products/import…`: a spreadsheet previewed, then applied row by row.
///
/// Handlers: `ImportPages.swift`, `ImportApply.swift`, `ImportRendering.swift`, `ImportCorrections.swift`. `PanelControllers` builds it
/// with the dependencies below.
struct ImportController: Sendable, CatalogWriting {
    let pages: Pages
    let upstream: Upstream
    let uploads: UploadFolders
    let imports: ImportService
    let imageStager: ImageStager
    /// The panel's client to the outside, for photos named by URL.
    let outbound: HTTPClient

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/products/import", .editor, page: \.controllers.importController) { try await $0.importForm($1, $2) }
        // The CSV's 5 MiB plus the photos within the register form's upload limit; a body over it
        // is refused (413) before it is read.
        routes.post("/products/import", .editor, bodyLimit: .importUpload,
                    page: \.controllers.importController) { try await $0.importPreview($1, $2) }
        routes.get("/products/import/{import}", .editor, page: \.controllers.importController) { try await $0.importPage($1, $2) }
        routes.get("/products/import/{import}/status.json", .editor,
                   plain: \.controllers.importController) { await $0.importStatus($1, $2) }
        routes.post("/products/import/{import}/apply", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.importController) { try await $0.importApply($1, $2) }
        // ImportCorrections.swift: the error rows as CSV; a corrected file → a new preview (303).
        routes.get("/products/import/{import}/errors.csv", .editor,
                   page: \.controllers.importController) { try await $0.importErrorRows($1, $2) }
        routes.post("/products/import/{import}/file", .editor, bodyLimit: .importUpload,
                    page: \.controllers.importController) { try await $0.importCorrected($1, $2) }
    }
}
