import Foundation
import Testing
@testable import AdminPanel

/// The rule a reviewer can check: no type of the panel is spread over more than
/// `maxFiles` files by extensions. A type extended from everywhere (the old `PanelApp`, extended
/// by 37 files) hides where a handler lives and what it depends on; a controller per concept
/// keeps each type to its own folder. The scan is by text: every file that contains
/// `extension T` counts once for `T`.
@Suite struct ExtensionCountRuleTests {
    static let maxFiles = 4

    /// The types a file extends (`extension T`, `extension T: P`, `extension T where …`,
    /// `private extension T`), each once; commented-out lines are skipped.
    static func extendedTypes(in text: String) -> Set<String> {
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
            while let first = words.first, ["public", "private", "fileprivate", "internal", "package"].contains(first) {
                words = words.dropFirst()
            }
            guard words.first == "extension", words.count > 1 else { continue }
            let name = words[words.index(after: words.startIndex)].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names
    }

    /// The types extended in more than `limit` files, with those files, from `files` (name → text).
    static func offenders(_ files: [String: String], limit: Int = maxFiles) -> [String: [String]] {
        var filesByType: [String: [String]] = [:]
        for (name, text) in files {
            for type in extendedTypes(in: text) { filesByType[type, default: []].append(name) }
        }
        return filesByType.filter { $0.value.count > limit }.mapValues { $0.sorted() }
    }

    @Test func theScanFindsExtensionsAndCountsEachFileOnce() {
        #expect(Self.extendedTypes(in: "extension A {\n}\nprivate extension B: Equatable {}\n// extension C\nextension A where X == Y {}\n")
                == ["A", "B"])
        let five = Dictionary(uniqueKeysWithValues: (1...5).map { ("F\($0).swift", "extension Spread {\n}\n") })
        #expect(Self.offenders(five) == ["Spread": ["F1.swift", "F2.swift", "F3.swift", "F4.swift", "F5.swift"]])
        #expect(Self.offenders(five.filter { $0.key != "F5.swift" }).isEmpty)
    }

    @Test func noPanelTypeIsExtendedInMoreThanFourFiles() throws {
        let folder = PanelHarness.repository.appendingPathComponent("Sources/AdminPanel")
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let relative = String(file.path.dropFirst(folder.path.count + 1))
            files[relative] = try String(contentsOf: file, encoding: .utf8)
        }
        #expect(files.count > 100, "the scan must see the sources (found \(files.count) files)")
        let offenders = Self.offenders(files)
        let listed = offenders.keys.sorted().map { "\($0) in \(offenders[$0]!.count) files: \(offenders[$0]!.joined(separator: ", "))" }
        #expect(offenders.isEmpty,
                "a type extended in more than \(Self.maxFiles) files; give the concept its own type instead:\n\(listed.joined(separator: "\n"))")
    }
}
