/// A `.rels` part: what a part points to, by relationship id. Targets are resolved to part names
/// in the archive (relative to the source part's folder, or absolute from the package root).
struct PackageRelationships {
    struct Relationship: Equatable {
        var type: String
        var target: String
    }

    private(set) var byID: [String: Relationship] = [:]
    private(set) var all: [Relationship] = []

    /// The relationships of `source` (`xl/workbook.xml` → `xl/_rels/workbook.xml.rels`; the
    /// package itself: `""` → `_rels/.rels`). None when the part is missing.
    init(of source: String, in archive: ZipArchive) throws(WorkbookFailure) {
        let folder = PartName.folder(of: source)
        let file = source.split(separator: "/").last.map(String.init) ?? ""
        let handler = Handler(folder: folder)
        try XMLPart.read(folder + "_rels/" + file + ".rels", from: archive, into: handler)
        byID = handler.byID
        all = handler.all
    }

    /// The first target whose type ends with `/kind` (types differ between transitional and
    /// strict packages only before that last segment).
    func first(ofKind kind: String) -> String? {
        all.first { $0.type.hasSuffix("/" + kind) }?.target
    }

    private final class Handler: XMLEventHandler {
        let folder: String
        var byID: [String: Relationship] = [:]
        var all: [Relationship] = []

        init(folder: String) { self.folder = folder }

        func start(_ name: String, _ attributes: XMLAttributes) throws(WorkbookFailure) {
            guard name == "Relationship", let id = attributes["Id"], let type = attributes["Type"],
                  let target = attributes["Target"], attributes["TargetMode"] != "External",
                  let resolved = PartName.resolve(target, from: folder) else { return }
            let relationship = Relationship(type: type, target: resolved)
            if byID[id] == nil { byID[id] = relationship }
            all.append(relationship)
            // A relationship part lists a handful of targets; thousands are no workbook.
            if all.count > 10_000 { throw .damaged(part: folder + "_rels") }
        }

        func end(_ name: String) throws(WorkbookFailure) {}
        func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(WorkbookFailure) {}
    }
}

/// Part names inside the archive: no leading slash, `/` between folders.
enum PartName {
    static func folder(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "" }
        return String(part[...slash])
    }

    /// `worksheets/sheet1.xml` from `xl/` → `xl/worksheets/sheet1.xml`; `/xl/x.xml` → `xl/x.xml`;
    /// `..` steps up. nil when the target leaves the package.
    static func resolve(_ target: String, from folder: String) -> String? {
        let joined = target.hasPrefix("/") ? String(target.dropFirst()) : folder + target
        var parts: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(segment)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
