import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import SQLiteStore
import Testing
import TestSupport
@testable import AdminPanel

/// `openmarket-admin backup DIR` against a running panel: a copy taken under write
/// load passes `PRAGMA integrity_check`, names only image files it holds, and starts as a panel;
/// refused destinations fail with one line and leave the running panel alone.
@Suite(.awaitsTeardown) struct BackupTests {
    static func backup(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await offPool {
            let result = try ChildProcess.run(try builtProduct("openmarket-admin"), ["backup"] + arguments)
            return (result.termination.status, result.output, result.error)
        }
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    @Test func aBackupTakenUnderWriteLoadIsSoundAndStarts() async throws {
        let data = Self.temporary("backup-data"), copy = Self.temporary("backup-copy")
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: copy)
        }
        let panel = try await offPool { try ExecutableTests.start(data: data, extra: ["--seed", "3"]) }
        let browser = TestBrowser(port: panel.port)

        // Write load: registrations (new image files and rows) and edits (activity rows), until stopped.
        let stop = Locked(false), writes = Locked(0)
        let load = Task {
            var round = 0
            while !stop.value {
                round += 1
                let token = try await browser.get("/products/new").inputValue("csrf_token") ?? ""
                let created = try await browser.postMultipart("/products", fields: RegisterRouteTests.fields(token, name: "Load \(round)"),
                                                              files: [.init(filename: "a.png", type: "image/png", data: TestImages.png())])
                let form = try await browser.get("/products/1/edit")
                let edited = try await browser.post("/products/1/edit", form: EditRouteTests.editFields(from: form, overriding: ["name": "Edit \(round)"]))
                if created.status == 303 && edited.status == 303 { writes.withLock { $0 += 2 } }
            }
        }
        #expect(await eventually(seconds: 60) { writes.value >= 4 })
        let result = try await Self.backup([copy.path, "--data", data.path])
        stop.value = true
        try await load.value
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        #expect(result.output.hasPrefix("Backed up "))

        for database in ["panel.sqlite", "openmarket.sqlite"] {
            let path = copy.appendingPathComponent(database).path
            #expect(try OnlineBackup.integrityCheck(path) == "ok", "\(database)")
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
        #expect(try FileManager.default.attributesOfItem(atPath: copy.path)[.posixPermissions] as? Int == 0o700)
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("uploads").path))
        // Every image the copied rows name is there, whole; nothing else is.
        let store = try SQLiteConnection(path: copy.appendingPathComponent("openmarket.sqlite").path)
        var named: [String] = []
        try store.query("SELECT file_name FROM images") { named.append($0.string(0)) }
        var registered = 0
        try store.query("SELECT count(*) FROM products WHERE name LIKE 'Load %'") { registered = $0.int(0) }
        store.close()
        #expect(registered >= 1)
        let copied = try FileManager.default.contentsOfDirectory(atPath: copy.appendingPathComponent("media").path)
        #expect(Set(copied) == Set(named))
        for name in named {
            let original = try Data(contentsOf: data.appendingPathComponent("media").appendingPathComponent(name))
            #expect(try Data(contentsOf: copy.appendingPathComponent("media").appendingPathComponent(name)) == original)
        }
        let panelCopy = try SQLiteConnection(path: copy.appendingPathComponent("panel.sqlite").path)
        var activityRows = 0
        try panelCopy.query("SELECT count(*) FROM activity") { activityRows = $0.int(0) }
        panelCopy.close()
        #expect(activityRows >= 2)
        #expect(try await ExecutableTests.stop(panel.child) == 0)

        // Restore = start a panel on the copy: it serves the products the copy holds.
        let restored = try await offPool { try ExecutableTests.start(data: copy) }
        #expect(restored.lines.contains("Demo vendor \"demo\" ready"))
        let list = try await TestBrowser(port: restored.port).get("/products?sort=newest")
        #expect(list.status == 200)
        #expect(list.text.contains("Load 1"))
        #expect(try await ExecutableTests.stop(restored.child) == 0)
    }

    @Test func refusedDestinationsFailWithOneLineAndLeaveThePanelAlone() async throws {
        let data = Self.temporary("backup-refused")
        let full = Self.temporary("backup-full")
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: full)
        }
        let panel = try await offPool { try ExecutableTests.start(data: data, extra: ["--seed", "1"]) }
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: full.appendingPathComponent("notes.txt"))
        let attempts: [(arguments: [String], says: String, status: Int32)] = [
            ([full.path, "--data", data.path], "is not empty", 1),
            (["/dev/null/backup", "--data", data.path], "cannot create /dev/null/backup", 1),
            ([full.appendingPathComponent("notes.txt").path, "--data", data.path], "is not a folder", 1),
            ([Self.temporary("backup-none").path, "--data", "/no/such/data"], "no data folder at /no/such/data", 1),
            ([], "needs a folder", 2),
            (["a", "b", "--data", data.path], "one folder", 2),
            (["a", "--frobnicate"], "unknown option", 2),
        ]
        for attempt in attempts {
            let result = try await Self.backup(attempt.arguments)
            #expect(result.status == attempt.status, "\(attempt.arguments)")
            #expect(result.error.hasPrefix("openmarket-admin: ") && result.error.contains(attempt.says), "\(result.error)")
            #expect(result.error.filter { $0 == "\n" }.count == 1, "\(result.error)")
        }
        #expect(try String(contentsOf: full.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: full.path) == ["notes.txt"])
        #expect(!panel.child.hasExited)
        #expect(try await TestBrowser(port: panel.port).get("/products").status == 200)
        #expect(try await ExecutableTests.stop(panel.child) == 0)
    }

    /// DIR as a symbolic link (to an empty folder: the copy and its chmod would land in the
    /// link's target) or a folder of another user is refused, and the target is left as it was.
    @Test func aLinkedOrForeignDestinationIsRefused() async throws {
        let data = Self.temporary("backup-linked-data")
        let target = Self.temporary("backup-link-target")
        let link = Self.temporary("backup-link")
        let foreign = Self.temporary("backup-foreign")
        defer { for url in [data, target, link, foreign] { try? FileManager.default.removeItem(at: url) } }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let linked = try await Self.backup([link.path, "--data", data.path])
        #expect(linked.status == 1)
        #expect(linked.error.contains("is a symbolic link"), "\(linked.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o755)

        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        // Only root can give a folder away; elsewhere the refusal cannot be set up.
        guard chown(foreign.path, 65534, 65534) == 0 else { return }
        let other = try await Self.backup([foreign.path, "--data", data.path])
        #expect(other.status == 1)
        #expect(other.error.contains("belongs to another user"), "\(other.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign.path).isEmpty)
    }

    @Test func theCommandLineFindsDataAsThePanelDoes() throws {
        #expect(try BackupCommand.parse(["/b"], environment: [:]) == BackupCommand(dataDirectory: "./.openmarket", destination: "/b"))
        #expect(try BackupCommand.parse(["/b"], environment: ["OPENMARKET_DATA": "/srv/d"])?.dataDirectory == "/srv/d")
        #expect(try BackupCommand.parse(["--data", "/x", "/b"], environment: ["OPENMARKET_DATA": "/srv/d"])?.dataDirectory == "/x")
        #expect(try BackupCommand.parse(["/b", "--data=/y"], environment: [:])?.dataDirectory == "/y")
        #expect(try BackupCommand.parse(["--help"], environment: [:]) == nil)
        #expect(throws: BackupCommand.Problem.self) { try BackupCommand.parse(["--data"], environment: [:]) }
    }
}
