import Foundation
import Testing
@testable import Workbook

/// The writer's header styles: bold for every column, and a grey fill only on the columns named
/// read-only, made only when there is one (a table without them keeps exactly its styles).
@Suite struct WorkbookWriterTests {
    /// A two-column table written with these read-only columns, as the parts of its archive.
    static func written(readOnly: Set<Int>) throws -> [String: String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("table.xlsx").path
        let writer = WorkbookWriter(sheetName: "products", header: ["상품명", "판매자 (수정 불가)"],
                                    temporaryDirectory: folder.path, readOnlyColumns: readOnly)
        try writer.write(to: path, rowCount: 1) { _ in [.text("텀블러"), .text("내 스토어")] }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try WorkbookReader.read(bytes).rows.map(\.cells) == [["상품명", "판매자 (수정 불가)"], ["텀블러", "내 스토어"]])
        let archive = try ZipArchive(bytes, limits: WorkbookLimits())
        var parts: [String: String] = [:]
        for name in archive.names {
            var data: [UInt8] = []
            try archive.read(name) { data.append(contentsOf: $0) }
            parts[name] = String(decoding: data, as: UTF8.self)
        }
        return parts
    }

    /// The style index (`s`) of a cell, "" for the default.
    static func style(_ reference: String, _ sheet: String) -> String {
        guard let start = sheet.range(of: "<c r=\"\(reference)\"") else { return "missing" }
        let element = sheet[start.upperBound...].prefix { $0 != ">" }
        guard let style = element.range(of: "s=\"") else { return "" }
        return String(element[style.upperBound...].prefix { $0 != "\"" })
    }

    @Test func readOnlyHeadersAreGreyAndOthersOnlyBold() throws {
        let marked = try Self.written(readOnly: [1])
        let styles = try #require(marked["xl/styles.xml"])
        #expect(styles.contains("<fgColor rgb=\"FFD9D9D9\"/>"))
        let sheet = try #require(marked["xl/worksheets/sheet1.xml"])
        #expect(Self.style("A1", sheet) != Self.style("B1", sheet))
        #expect(Self.style("A2", sheet) == Self.style("B2", sheet))

        let plain = try Self.written(readOnly: [])
        #expect(!(try #require(plain["xl/styles.xml"])).contains("D9D9D9"))
        let plainSheet = try #require(plain["xl/worksheets/sheet1.xml"])
        #expect(Self.style("A1", plainSheet) == Self.style("B1", plainSheet))
        #expect(Self.style("A1", plainSheet) == Self.style("A1", sheet))
    }
}
