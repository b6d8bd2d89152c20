import Foundation
import HTTPServer
import OpenMarketCore

/// Keeps a product in the trash before the API deletes it (single delete, bulk), and sweeps old trash.
struct TrashKeeper: Sendable {
    let configuration: PanelConfiguration
    let client: OpenMarketClient
    let media: MediaLinks
    let mediaCache: MediaCache
    let transport: any HTTPTransport
    let trash: TrashStore
    let safetyFiles: SafetyFiles

    /// The trash's area under the safety folder.
    static let trashArea = "trash"

    /// The keep-then-delete steps with the panel's real parts.
    var keepThenDelete: KeepThenDelete {
        let client = client, files = safetyFiles, store = trash
        return KeepThenDelete(
            read: { id throws(OpenMarketError) in try await client.product(id: id) },
            fetchImage: { [self] image in await imageBytes(image.url) },
            writeFiles: { product, images, folder in
                try await files.keep(product, imageData: images, area: Self.trashArea, folder: folder)
            },
            record: { item in try await store.record(item) },
            discard: { item in
                try? await store.remove(item.oldID)
                await files.remove(area: Self.trashArea, folder: item.folder)
            },
            now: configuration.now)
    }

    /// An image's bytes from the media cache or the API's origin (the `/media` route's rules:
    /// allowed origins only, and only real image bytes).
    func imageBytes(_ url: String) async -> Data? {
        guard let path = media.panelPath(for: url)?.dropFirst("/media/".count).removingPercentEncoding,
              let upstream = media.upstreamURL(forPath: path) else { return nil }
        if let hit = await mediaCache.get(upstream.absoluteString) { return hit.data }
        guard let answer = try? await transport.send(TransportRequest(method: "GET", url: upstream, headers: [], body: nil,
                                                                      timeout: configuration.api.timeout)),
              answer.status == 200, ImageFormat.detect(answer.body) != nil else { return nil }
        return answer.body
    }

    /// The sentence telling the seller why nothing was deleted.
    static func keepFailureMessage(_ failure: KeepThenDelete.KeepFailure, _ l: Localizer) -> String {
        switch failure {
        case .imageUnreadable(let name): l("safety_keep_failed_image", ["file": name])
        case .diskFull: l("safety_keep_failed_disk_full")
        case .storage: l("safety_keep_failed_storage")
        }
    }

    static func keepFailureStatus(_ failure: KeepThenDelete.KeepFailure) -> Int {
        switch failure {
        case .imageUnreadable: 502
        case .diskFull: 507
        case .storage: 500
        }
    }

    /// Removes items older than `--trash-days` with their files, and folders a crash left behind.
    func sweepTrash() async {
        let cutoff = configuration.now().addingTimeInterval(-Double(configuration.trashDays) * 86_400)
        do {
            for folder in try await trash.removeOlder(than: cutoff) {
                await safetyFiles.remove(area: Self.trashArea, folder: folder)
            }
            await safetyFiles.removeOrphans(area: Self.trashArea, keeping: try await trash.allFolders())
        } catch {
            FileHandle.standardError.write(Data("openmarket-admin: the trash could not be swept: \(error)\n".utf8))
        }
    }
}
