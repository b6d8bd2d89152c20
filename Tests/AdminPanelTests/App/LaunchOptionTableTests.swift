import Foundation
import Testing
@testable import AdminPanel

/// Each option is declared once, in `LaunchOptionTable`; `--help`, the README and the defaults
/// follow it.
@Suite struct LaunchOptionTableTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The README's table is the generated one (`scripts/option-table --write` rewrites it).
    @Test func theReadmeTableIsTheGeneratedOne() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- options:begin"), "README.md has no options:begin marker")
        let afterBegin = try #require(readme[begin.upperBound...].range(of: "-->\n"))
        let end = try #require(readme.range(of: "<!-- options:end -->"), "README.md has no options:end marker")
        let section = readme[afterBegin.upperBound..<end.lowerBound].trimmingCharacters(in: .newlines)
        #expect(section == LaunchOptions.markdownTable,
                "README.md's option table differs from the table in LaunchOptionTable.swift: run scripts/option-table --write")
    }

    @Test func helpListsEveryOptionAndVariable() {
        for row in LaunchOptionTable.rows {
            #expect(LaunchOptions.usage.contains("  \(row.synopsis) ") || LaunchOptions.usage.contains("  \(row.synopsis)\n"),
                    "--help lacks \(row.synopsis)")
            #expect(LaunchOptions.usage.contains(row.variable), "--help lacks \(row.variable)")
            #expect(LaunchOptions.markdownTable.contains("`\(row.variable)`"))
        }
        // Wrapped for a terminal (the usage lines above the options are written by hand).
        let lines = LaunchOptions.usage.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.dropFirst(4).allSatisfy { $0.count <= 100 })
    }

    @Test func flagsAndVariablesAreUnique() {
        let flags = LaunchOptionTable.rows.map(\.flag), variables = LaunchOptionTable.rows.map(\.variable)
        #expect(Set(flags).count == flags.count)
        #expect(Set(variables).count == variables.count)
        #expect(variables.allSatisfy { $0.hasPrefix("OPENMARKET_") })
    }

    /// A field of `LaunchOptions` without a row could never be set from the command line.
    @Test func everyFieldHasARow() {
        let fields = Mirror(reflecting: LaunchOptions()).children.compactMap(\.label).filter { $0 != "help" }
        #expect(fields.count == LaunchOptionTable.rows.count, "\(fields)")
    }

    /// Every row writes its own field: each flag given alone changes exactly one field.
    @Test func everyRowWritesItsField() throws {
        let defaults = LaunchOptions()
        let samples: [String: [String]] = [
            "api": ["--api", "http://api.example", "--identifier", "i", "--secret", "s"],
            "identifier": ["--identifier", "i", "--secret", "s"], "secret": ["--secret", "s", "--identifier", "i"],
            "tls-cert": ["--tls-cert", "c.pem", "--tls-key", "k.pem"], "tls-key": ["--tls-key", "k.pem", "--tls-cert", "c.pem"],
            "api-ca": ["--api-ca", #filePath], "sign-in": ["--sign-in"],
            "dialect": ["--dialect", "v1"], "tls": ["--tls", "on"], "time-zone": ["--time-zone", "Pacific/Chatham"],
            "media-origin": ["--media-origin", "https://images.example"], "allowed-host": ["--allowed-host", "a.example"],
            "public-url": ["--public-url", "https://192.168.0.10:8080"], "timeout": ["--timeout", "3"],
            "host": ["--host", "0.0.0.0"], "port": ["--port", "1"], "sandbox-port": ["--sandbox-port", "2"],
            "vendor-id": ["--vendor-id", "9"], "data": ["--data", "/d"], "public": ["--public", "/p"],
            "templates": ["--templates", "/t"], "seed": ["--seed", "3"], "activity-days": ["--activity-days", "4"],
            "trash-days": ["--trash-days", "5"], "max-connections": ["--max-connections", "6"],
        ]
        for row in LaunchOptionTable.rows {
            let arguments = try #require(samples[row.flag], "no sample for --\(row.flag)")
            let given = try LaunchOptions.parse(arguments, environment: [:])
            #expect(given != defaults, "--\(row.flag) changed nothing")
            let fromVariable = try LaunchOptions.parse(Array(arguments.dropFirst(2)),
                                                       environment: [row.variable: arguments.count > 1 && row.takesValue ? arguments[1] : "1"])
            #expect(fromVariable == given, "\(row.variable) differs from --\(row.flag)")
        }
    }

    /// A default shown as a value parses back to the default.
    @Test func shownDefaultsParseBackToTheDefaults() throws {
        for row in LaunchOptionTable.rows {
            guard case .value(let text) = row.shownDefault else { continue }
            #expect(try LaunchOptions.parse(["--\(row.flag)", text], environment: [:]) == LaunchOptions(), "--\(row.flag)")
        }
    }

    /// The panel's configuration starts from the same defaults.
    @Test func theConfigurationSharesTheDefaults() {
        let configuration = PanelConfiguration(api: .init(baseURL: URL(string: "http://127.0.0.1:1")!, dialect: .v2a,
                                                          identifier: "", secret: ""),
                                               publicDirectory: URL(fileURLWithPath: "/"), templatesDirectory: URL(fileURLWithPath: "/"))
        let options = LaunchOptions()
        #expect(configuration.host == options.host && configuration.port == options.port)
        #expect(configuration.activityDays == options.activityDays && configuration.trashDays == options.trashDays)
        #expect(configuration.maxConnections == options.maxConnections && configuration.signIn == options.signIn)
    }

    @Test func helpMarkdownAsksForTheTable() throws {
        #expect(try LaunchOptions.parse(["--help-markdown"], environment: [:]).help == .markdown)
        #expect(try LaunchOptions.parse(["--port", "1", "--help"], environment: [:]).help == .text)
    }
}
