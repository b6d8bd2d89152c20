import Foundation
import HTTPServer
import OpenMarketCore

/// `/media/…` (product images through the panel, cached) and `/uploads/{token}/{image}` (staged previews).
///
/// Handlers: `MediaProxy.swift`, `StagedUploadPreview.swift`. `PanelApp` builds it with the
/// dependencies below.
struct MediaController: Sendable {
    let pages: Pages
    let configuration: PanelConfiguration
    let transport: any HTTPTransport
    let media: MediaLinks
    let staging: StagedUploads
    let mediaCache: MediaCache
    let mediaFetches: SingleFlight<MediaController.MediaFetch>
}
