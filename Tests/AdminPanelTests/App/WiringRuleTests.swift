import Foundation
import Testing
@testable import AdminPanel

/// Rules a reviewer can check on the wiring, scanned by text from `Sources/AdminPanel`:
/// - `PanelApp` stays a short list of groups (at most `maxPanelAppProperties` stored properties).
/// - A controller (a type named `…Controller`) stores at most `maxControllerDependencies`
///   dependencies, and none of them is another controller (one that shows another's page holds
///   that page as a function). More means it does two concepts: split it along them, or let a
///   group or a service offer the operation it repeats.
/// - A controller declares no computed property that only forwards a member of something it
///   holds (`var client: OpenMarketClient { upstream.client }`): its handlers name what they use
///   (`upstream.client`). A computed property whose body is a member path starting at one of the
///   type's stored properties (or `self`) counts as forwarding; one that computes (calls, builds,
///   compares) does not.
/// - `HTTPResponse` never leaves the web layer: it is named only in controllers (their
///   declarations and extensions) and in the files that make requests into answers for every
///   feature (`webLayer`: the page plumbing, the guards, the router helpers and the access rules).
///   Services, stores, writers, importers and schedulers answer values or typed errors, which the
///   controller turns into a response.
///
/// The stored properties are `let`/`var` at the type's first indent, not computed, of each type
/// declared at the top of a file; the computed ones are read from declarations and extensions.
@Suite struct WiringRuleTests {
    static let maxPanelAppProperties = 20
    static let maxControllerDependencies = 6
    /// Folders (ending in `/`) and files under `Sources/AdminPanel` where `HTTPResponse` belongs
    /// outside the controllers.
    static let webLayer = ["Web/", "Guards/", "App/PanelRouter.swift", "App/Routes.swift", "Sessions/AccessRules.swift"]

    /// Any top-level type or extension (the line starts it), for the scans that follow a member to its type.
    static func declaredOrExtended(_ line: Substring) -> String? {
        guard !line.hasPrefix(" "), let match = line.firstMatch(
            of: /^(?:(?:public|private|fileprivate|internal) )?(?:final class|class|struct|actor|final actor|enum|extension|protocol) (\w+)\b/)
        else { return nil }
        return String(match.1)
    }

    /// The stored properties (name, declared type) of every type declared in `text`.
    static func storedProperties(in text: String) -> [String: [(name: String, type: String)]] {
        let declaration = /^(?:final class|struct|actor|final actor) (\w+)\b[^{]*\{\s*$/
        let property = /^    (?:private(?:\(set\))? |nonisolated )?(?:let|var) (\w+)(?:\s*:\s*([^={]+?))?\s*(=.*)?(\{)?\s*$/
        var result: [String: [(name: String, type: String)]] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.wholeMatch(of: declaration) {
                current = String(match.1)
                result[String(match.1), default: []] = []
            } else if line.hasPrefix("}") {
                current = nil
            } else if let type = current, let match = line.wholeMatch(of: property), match.4 == nil {
                result[type, default: []].append((String(match.1), match.2.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""))
            }
        }
        return result
    }

    /// The instance computed properties (name, body) of every type declared or extended in
    /// `text`: `var x: T { body }` on one line, or `var x: T {`, one line of body, `}`.
    static func computedProperties(in text: String) -> [String: [(name: String, body: String)]] {
        let oneLine = /^    (?:(?:private|fileprivate|internal|nonisolated) )*var (\w+)\s*:\s*[^={]+\{\s*(?:return\s+)?(.*?)\s*\}\s*$/
        let opening = /^    (?:(?:private|fileprivate|internal|nonisolated) )*var (\w+)\s*:\s*[^={]+\{\s*$/
        var result: [String: [(name: String, body: String)]] = [:]
        var current: String?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if let type = Self.declaredOrExtended(line) {
                current = type
            } else if line.hasPrefix("}") {
                current = nil
            } else if let type = current, let match = line.wholeMatch(of: oneLine) {
                result[type, default: []].append((String(match.1), String(match.2)))
            } else if let type = current, let match = line.wholeMatch(of: opening), index + 2 < lines.count,
                      lines[index + 2].trimmingCharacters(in: .whitespaces) == "}" {
                var body = lines[index + 1].trimmingCharacters(in: .whitespaces)
                if body.hasPrefix("return ") { body.removeFirst("return ".count) }
                result[type, default: []].append((String(match.1), body))
            }
        }
        return result
    }

    /// Whether `body` only reads a member of one of `stored` (or of `self`): `a.b`, `self.a.b.c`.
    static func forwards(_ body: String, stored: Set<String>) -> Bool {
        guard body.wholeMatch(of: /\w+(?:\.\w+)+/) != nil else { return false }
        var parts = body.split(separator: ".").map(String.init)
        if parts.first == "self" { parts.removeFirst() }
        guard let root = parts.first else { return false }
        return stored.contains(root) && parts.count >= 2
    }

    /// The lines naming `HTTPResponse` outside a controller, as (type, line): comments skipped.
    static func responseLinesOutsideControllers(in text: String) -> [(type: String, line: String)] {
        var found: [(type: String, line: String)] = []
        var current = "(top level)"
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let type = Self.declaredOrExtended(line) { current = type }
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), code.contains("HTTPResponse"), !current.hasSuffix("Controller") else { continue }
            found.append((current, code))
        }
        return found
    }

    static var sourceFolder: URL { PanelHarness.repository.appendingPathComponent("Sources/AdminPanel") }

    /// Every Swift file of the panel: its path under `Sources/AdminPanel`, and its text.
    static func panelFiles() throws -> [(path: String, text: String)] {
        let folder = sourceFolder.standardizedFileURL
        var files: [(path: String, text: String)] = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let path = String(file.standardizedFileURL.path.dropFirst(folder.path.count + 1))
            files.append((path, try String(contentsOf: file, encoding: .utf8)))
        }
        return files
    }

    static func panelSources() throws -> [String: [(name: String, type: String)]] {
        var types: [String: [(name: String, type: String)]] = [:]
        for file in try panelFiles() {
            types.merge(storedProperties(in: file.text)) { $0 + $1 }
        }
        return types
    }

    static func controllers() throws -> [String: [(name: String, type: String)]] {
        let controllers = try panelSources().filter { $0.key.hasSuffix("Controller") }
        #expect(controllers.count >= 15, "the scan must see the controllers (found \(controllers.count))")
        return controllers
    }

    @Test func theScanFindsStoredPropertiesOnly() {
        let text = "struct AController: Sendable {\n    let b: BController\n    var c = 1\n    var d: Int { 2 }\n    let e: @Sendable (Int) -> Int\n}\n"
        let found = Self.storedProperties(in: text)["AController"] ?? []
        #expect(found.map(\.name) == ["b", "c", "e"])
        #expect(found.first?.type == "BController")
    }

    @Test func theScanTellsForwardingFromComputing() {
        let text = """
            struct AController: Sendable {
                let upstream: Upstream
                var client: OpenMarketClient { upstream.client }
                var dialect: any PanelDialect {
                    return self.upstream.writer.dialect
                }
                var rows: Rows { Rows(catalog: upstream.catalogService) }
                var ready: Bool { upstream.dialect.hasVendor && true }
            }
            extension AController {
                var vendor: VendorIdentity { upstream.vendor }
                var other: Int { Self.limit }
            }
            """
        let stored = Set((Self.storedProperties(in: text)["AController"] ?? []).map(\.name))
        let computed = Self.computedProperties(in: text)["AController"] ?? []
        #expect(computed.map(\.name) == ["client", "dialect", "rows", "ready", "vendor", "other"])
        #expect(computed.filter { Self.forwards($0.body, stored: stored) }.map(\.name) == ["client", "dialect", "vendor"])
    }

    @Test func theScanFindsResponsesOutsideControllers() {
        let text = """
            struct DraftSaving: Sendable {
                // An HTTPResponse in a comment is no use of it.
                func save() -> HTTPResponse { .redirect(to: "/drafts") }
            }
            extension DraftController {
                func page() -> HTTPResponse { .text("") }
            }
            """
        #expect(Self.responseLinesOutsideControllers(in: text).map(\.type) == ["DraftSaving"])
    }

    @Test func panelAppIsAShortListOfGroups() throws {
        let properties = try #require(try Self.panelSources()["PanelApp"])
        #expect(properties.count <= Self.maxPanelAppProperties,
                "PanelApp stores \(properties.count) properties: \(properties.map(\.name).joined(separator: ", "))")
    }

    @Test func noControllerHoldsAnother() throws {
        let held = try Self.controllers().flatMap { name, properties in
            properties.filter { $0.type.hasSuffix("Controller") }.map { "\(name).\($0.name): \($0.type)" }
        }
        #expect(held.isEmpty, "a controller holds another; hold the page it needs as a function:\n\(held.sorted().joined(separator: "\n"))")
    }

    @Test func everyControllerHasAFewDependencies() throws {
        let wide = try Self.controllers().filter { $0.value.count > Self.maxControllerDependencies }.map { name, properties in
            "\(name) stores \(properties.count): \(properties.map(\.name).joined(separator: ", "))"
        }
        #expect(wide.isEmpty, """
            a controller stores more than \(Self.maxControllerDependencies) dependencies; split it along its concepts, \
            or let a group or service offer the operation it repeats:
            \(wide.sorted().joined(separator: "\n"))
            """)
    }

    @Test func noControllerForwardsWhatItHolds() throws {
        let files = try Self.panelFiles()
        let stored = try Self.controllers()
        var computed: [String: [(name: String, body: String)]] = [:]
        for file in files { computed.merge(Self.computedProperties(in: file.text)) { $0 + $1 } }
        let forwarding = stored.flatMap { name, properties in
            let names = Set(properties.map(\.name))
            return (computed[name] ?? []).filter { Self.forwards($0.body, stored: names) }.map { "\(name).\($0.name) { \($0.body) }" }
        }
        #expect(forwarding.isEmpty, "a controller forwards a member of what it holds; name it where it is used:\n\(forwarding.sorted().joined(separator: "\n"))")
    }

    @Test func httpResponseStaysInTheWebLayer() throws {
        let outside = try Self.panelFiles().filter { file in
            !Self.webLayer.contains { $0.hasSuffix("/") ? file.path.hasPrefix($0) : file.path == $0 }
        }.flatMap { file in
            Self.responseLinesOutsideControllers(in: file.text).map { "\(file.path) (\($0.type)): \($0.line)" }
        }
        #expect(outside.isEmpty, "a type outside the web layer names HTTPResponse; answer a value or a typed error instead:\n\(outside.sorted().joined(separator: "\n"))")
    }
}
