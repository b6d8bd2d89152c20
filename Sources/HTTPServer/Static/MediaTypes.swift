/// Content-Type by file extension, for static files. Unknown extensions are served as opaque
/// bytes (and `nosniff` keeps browsers from guessing otherwise).
public enum MediaTypes {
    public static func forExtension(_ ext: String) -> String {
        switch ext.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json", "map": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "csv": "text/csv; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "xml": "application/xml"
        case "pdf": "application/pdf"
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }
}
