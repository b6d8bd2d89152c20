import Foundation
import Testing
import TestSupport

/// Typed views: a template that names a field its view lacks stops the panel
/// at start-up with `file.html:line`, instead of rendering a hole or failing mid-request.
@Suite(.awaitsTeardown) struct TypedViewStartupTests {
    @Test func aTemplateNamingAMissingFieldStopsThePanelAtStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typed-views-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: PanelHarness.repository.appendingPathComponent("Templates"), to: templates)
        let errorPage = templates.appendingPathComponent("error.html")
        var lines = try String(contentsOf: errorPage, encoding: .utf8).components(separatedBy: "\n")
        #expect(lines.count > 5)
        lines[4] += "<p>{{retry_count}}</p>"   // line 5; ErrorPageView has no such field
        try lines.joined(separator: "\n").write(to: errorPage, atomically: true, encoding: .utf8)

        let data = folder.appendingPathComponent("data")
        let result = try await offPool {
            try ExecutableTests.run(["--templates", templates.path, "--port", "0", "--sandbox-port", "0", "--data", data.path])
        }
        #expect(result.status == 1)
        #expect(result.error.contains("error.html:5:"), "\(result.error)")
        #expect(result.error.contains("retry_count"), "\(result.error)")

        // The same folder with the line fixed starts (the copy itself is sound).
        lines[4] = lines[4].replacingOccurrences(of: "<p>{{retry_count}}</p>", with: "")
        try lines.joined(separator: "\n").write(to: errorPage, atomically: true, encoding: .utf8)
        let started = try await offPool {
            try ExecutableTests.start(data: data, extra: ["--templates", templates.path])
        }
        #expect(try await ExecutableTests.stop(started.child) == 0)
    }
}
