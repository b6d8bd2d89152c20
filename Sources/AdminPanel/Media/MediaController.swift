import Foundation
import HTTPServer
import OpenMarketCore

/// `/media/…` (product images through the panel, cached) and `/uploads/{token}/{image}` (staged previews).
///
/// Handlers: `MediaProxy.swift`, `StagedUploadPreview.swift`. `PanelControllers` builds it with the
/// dependencies below.
struct MediaController: Sendable {
    let pages: Pages
    let transport: any HTTPTransport
    let media: MediaLinks
    let staging: StagedUploads
    let mediaCache: MediaCache
    let mediaFetches: SingleFlight<MediaController.MediaFetch>

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/uploads/{token}/{image}", .viewer, page: \.controllers.mediaController) { try await $0.stagedPreview($1, $2) }
        routes.get("/media/{path...}", .viewer, plain: \.controllers.mediaController) { try await $0.mediaFile($1, $2) }
    }
}
