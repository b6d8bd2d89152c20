import Foundation
import HTMLTemplates

/// One language's compiled frame and typed pages, built once at start-up.
struct CompiledPages: Sendable {
    let frame: TemplateProgram<FrameView>
    /// Each page view's program, by its type (`program(for:)` casts back).
    private let programs: [ObjectIdentifier: any Sendable]
    /// `data-strings` of the frame: the language's `js_` texts, escaped once here.
    let escapedScriptStrings: String
    /// A first buffer size that fits most pages without growing (the list page is ~100 KB).
    let capacityHint = 128 * 1024

    init(templates: TemplateSet, catalog: StringCatalog, pageViews: [any PageView.Type]) throws {
        let strings = catalog.templateTexts
        frame = try templates.compile("layout", as: FrameView.self, strings: strings)
        var programs: [ObjectIdentifier: any Sendable] = [:]
        for type in pageViews {
            programs[ObjectIdentifier(type)] = try Self.compile(type, templates, strings)
        }
        self.programs = programs
        escapedScriptStrings = HTMLEscaping.escape(catalog.scriptJSON)
    }

    private static func compile<View: PageView>(_ type: View.Type, _ templates: TemplateSet,
                                                _ strings: [String: String]) throws -> any Sendable {
        try templates.compile(View.template, as: type, strings: strings)
    }

    func program<View: PageView>(for type: View.Type) -> TemplateProgram<View>? {
        programs[ObjectIdentifier(type)] as? TemplateProgram<View>
    }
}
