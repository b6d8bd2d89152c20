import Foundation
import HTTPServer

/// This process's folder under DATA/uploads: large uploads are spooled to its `spool`, photos
/// wait in its `staging` until a form is saved.
struct UploadFolders: Sendable {
    let scratch: ScratchFolder
    let spoolDirectory: URL
    let staging: StagedUploads

    /// Without DATA (tests), one shared parent in the temporary directory: each panel owns a
    /// locked folder there, and sweeps only the folders of dead processes.
    static func claim(_ configuration: PanelConfiguration) throws -> UploadFolders {
        let uploads = configuration.dataDirectory?.appendingPathComponent("uploads", isDirectory: true)
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-admin-uploads", isDirectory: true)
        do {
            let scratch = try ScratchFolder.claim(in: uploads)
            return UploadFolders(scratch: scratch, spoolDirectory: try scratch.subfolder("spool"),
                                 staging: try StagedUploads(directory: scratch.subfolder("staging"),
                                                            lifetime: configuration.stagingLifetime, now: configuration.now))
        } catch {
            throw PanelStartupError("the uploads folder \(uploads.path) cannot be used: \(error)")
        }
    }
}
