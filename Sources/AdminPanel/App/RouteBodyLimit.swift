import Foundation

/// The largest body a route accepts, some of them known only from the configuration.
enum RouteBodyLimit: Sendable {
    /// The server's default (GET routes).
    case serverDefault
    case bytes(Int)
    /// The register form's upload limit (`--upload-limit`).
    case upload
    /// The CSV import: the file's 5 MiB plus the photos within the upload limit.
    case importUpload
    /// The edit form: v1 edits may replace the images (the upload limit then), else 64 KiB.
    case productEdit

    func bytes(_ configuration: PanelConfiguration) -> Int? {
        switch self {
        case .serverDefault: nil
        case .bytes(let count): count
        case .upload: configuration.uploadLimit
        case .importUpload: ImportService.maxFileBytes + configuration.uploadLimit
        case .productEdit: configuration.api.dialect == .v1 ? configuration.uploadLimit : 64 * 1024
        }
    }
}
