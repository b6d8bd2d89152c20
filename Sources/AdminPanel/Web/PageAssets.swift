import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// What a panel builds from its templates folder before it serves: the string catalogs for its API
/// dialect and every language's compiled pages. They never change once built, so the panels of one
/// process that read the same folder with the same contents share one copy: a test process starts
/// hundreds of panels, and building costs each some 0.14 s (the catalogs read and cross-checked,
/// every page compiled twice).
struct PageAssets: Sendable {
    let catalogs: StringCatalogs
    let compiled: [Language: CompiledPages]

    /// The assets of `directory` for `dialect`, built on first use, and again whenever a file under
    /// the folder changed (the key is every file's bytes, so an edited template is never served stale).
    static func shared(directory: URL, dialect: Dialect) throws -> PageAssets {
        let key = Key(directory: directory.standardizedFileURL.path, dialect: dialect, files: Self.contents(of: directory))
        if let built = built.withLock({ $0[key] }) { return built }
        let assets = try PageAssets(directory: directory, dialect: dialect)
        built.withLock { built in
            // A process that keeps starting panels on new folders (tests writing templates) stays small.
            if built.count >= Self.kept { built.removeAll() }
            built[key] = assets
        }
        return assets
    }

    private init(directory: URL, dialect: Dialect) throws {
        let templates: TemplateSet
        do {
            templates = try TemplateSet(directory: directory)
        } catch {
            throw PanelStartupError("templates in \(directory.path) could not be loaded: \(error)")
        }
        catalogs = try StringCatalogs(directory: directory.appendingPathComponent("strings")).forDialect(dialect)
        compiled = try PageRenderer.compile(templates: templates, catalogs: catalogs)
    }

    private struct Key: Hashable {
        let directory: String
        let dialect: Dialect
        let files: [String: Data]
    }

    private static let kept = 8
    private static let built = Locked<[Key: PageAssets]>([:])

    /// Every regular file under `directory`, by its path, with its bytes (an unreadable folder gives
    /// an empty map, and loading then reports why).
    private static func contents(of directory: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return files }
        for case let file as URL in walker {
            if let bytes = try? Data(contentsOf: file) { files[file.path] = bytes }
        }
        return files
    }
}
