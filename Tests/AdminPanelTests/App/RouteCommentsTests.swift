import Foundation
import Testing
@testable import AdminPanel

/// The route table is where a newcomer starts: the comment above each group of routes in
/// `App/Routes.swift` names the handler's file, the template it renders and the view struct the
/// template is compiled against. A file renamed, a template removed or a view renamed without
/// the comment following would send them to nothing, so every one a comment names must exist.
@Suite struct RouteCommentsTests {
    /// The `.swift` files and `.html` templates a comment line names. A file without a folder is
    /// in the folder of the file named before it (`Import/ImportPages.swift, ImportApply.swift`).
    static func references(in comment: Substring) -> (files: [String], templates: [String], views: [String]) {
        var files: [String] = [], templates: [String] = [], views: [String] = []
        var folder = ""
        let words = comment.split(whereSeparator: { " ,();:".contains($0) })
        for word in words {
            if word.hasSuffix(".swift") {
                if let slash = word.lastIndex(of: "/") {
                    folder = String(word[..<slash])
                    files.append(String(word))
                } else {
                    files.append(folder.isEmpty ? String(word) : folder + "/" + word)
                }
            } else if word.hasSuffix(".html") {
                templates.append(String(word))
            } else if word.hasSuffix("View"), word.first?.isUppercase == true {
                views.append(String(word))
            }
        }
        return (files, templates, views)
    }

    @Test func theScanResolvesFoldersAndTemplates() {
        let found = Self.references(in: "// Import/ImportPages.swift, ImportApply.swift → import.html (ImportFormView), import_result.html")
        #expect(found.files == ["Import/ImportPages.swift", "Import/ImportApply.swift"])
        #expect(found.templates == ["import.html", "import_result.html"])
        #expect(found.views == ["ImportFormView"])
    }

    @Test func everyFileAndTemplateTheRouteTableNamesExists() throws {
        let repository = PanelHarness.repository
        let sources = repository.appendingPathComponent("Sources/AdminPanel")
        let text = try String(contentsOf: sources.appendingPathComponent("App/Routes.swift"), encoding: .utf8)
        var files: [String] = [], templates: [String] = [], views: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("// ") else { continue }
            let found = Self.references(in: trimmed)
            files += found.files
            templates += found.templates
            views += found.views
        }
        #expect(files.count >= 20, "the route table's comments name the handlers' files (found \(files.count))")
        #expect(templates.count >= 15, "the route table's comments name the templates (found \(templates.count))")
        let manager = FileManager.default
        let missingFiles = files.filter { !manager.fileExists(atPath: sources.appendingPathComponent($0).path) }
        let missingTemplates = templates.filter {
            !manager.fileExists(atPath: repository.appendingPathComponent("Templates").appendingPathComponent($0).path)
        }
        #expect(missingFiles.isEmpty, "Routes.swift names files that do not exist: \(missingFiles)")
        #expect(missingTemplates.isEmpty, "Routes.swift names templates that do not exist: \(missingTemplates)")
        #expect(views.count >= 15, "the route table's comments name the views (found \(views.count))")
        let typedPages = Set(PageRenderer.pageViews.map { String(describing: $0) })
        let unknownViews = views.filter { !typedPages.contains($0) }
        #expect(unknownViews.isEmpty, "Routes.swift names views that are not typed pages: \(unknownViews)")
    }
}
