import Foundation
import Testing
@testable import AdminPanel

/// Two rules a reviewer can check on the wiring: `PanelApp` stays a short list of groups (at most
/// `maxPanelAppProperties` stored properties), and no controller stores another controller (one
/// that shows another's page holds that page as a function). The scan is by text: the stored
/// properties (`let`/`var` at the type's first indent, not computed) of each type declared at the
/// top of a file.
@Suite struct WiringRuleTests {
    static let maxPanelAppProperties = 20

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

    static func panelSources() throws -> [String: [(name: String, type: String)]] {
        let folder = PanelHarness.repository.appendingPathComponent("Sources/AdminPanel")
        var types: [String: [(name: String, type: String)]] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            types.merge(storedProperties(in: try String(contentsOf: file, encoding: .utf8))) { $0 + $1 }
        }
        return types
    }

    @Test func theScanFindsStoredPropertiesOnly() {
        let text = "struct AController: Sendable {\n    let b: BController\n    var c = 1\n    var d: Int { 2 }\n    let e: @Sendable (Int) -> Int\n}\n"
        let found = Self.storedProperties(in: text)["AController"] ?? []
        #expect(found.map(\.name) == ["b", "c", "e"])
        #expect(found.first?.type == "BController")
    }

    @Test func panelAppIsAShortListOfGroups() throws {
        let properties = try #require(try Self.panelSources()["PanelApp"])
        #expect(properties.count <= Self.maxPanelAppProperties,
                "PanelApp stores \(properties.count) properties: \(properties.map(\.name).joined(separator: ", "))")
    }

    @Test func noControllerHoldsAnother() throws {
        let types = try Self.panelSources()
        let controllers = types.filter { $0.key.hasSuffix("Controller") }
        #expect(controllers.count >= 15, "the scan must see the controllers (found \(controllers.count))")
        let held = controllers.flatMap { name, properties in
            properties.filter { $0.type.hasSuffix("Controller") }.map { "\(name).\($0.name): \($0.type)" }
        }
        #expect(held.isEmpty, "a controller holds another; hold the page it needs as a function:\n\(held.sorted().joined(separator: "\n"))")
    }
}
