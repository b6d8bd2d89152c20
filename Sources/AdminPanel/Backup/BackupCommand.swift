import Foundation

/// `openmarket-admin backup DIR [--data DATA]`: what the command line asks for. `DATA` is found
/// as the panel finds it: `--data`, else `OPENMARKET_DATA`, else `./.openmarket`.
public struct BackupCommand: Equatable, Sendable {
    public var dataDirectory: String
    public var destination: String

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public static let usage = """
        Usage: openmarket-admin backup DIR [--data DATA]

        Copies DATA (panel.sqlite, the sandbox's databases and the images their rows name, tls/,
        vendors.json) into DIR while the panel runs. DIR must not exist yet, or be empty.
        DATA: --data, else OPENMARKET_DATA, else ./.openmarket. Restore: see docs/lan-console.md.
        """

    /// `arguments` are those after `backup`. nil: `--help` was asked for.
    public static func parse(_ arguments: [String], environment: [String: String]) throws -> BackupCommand? {
        let option = LaunchOptionTable.data
        var data = environment[option.variable].flatMap { $0.isEmpty ? nil : $0 } ?? option.defaultValue
        var destination: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" { return nil }
            if argument == "--data" {
                guard let value = rest.popFirst(), !value.isEmpty else { throw Problem(description: "--data needs a folder") }
                data = value
            } else if argument.hasPrefix("--data=") {
                data = String(argument.dropFirst("--data=".count))
                guard !data.isEmpty else { throw Problem(description: "--data needs a folder") }
            } else if argument.hasPrefix("-") {
                throw Problem(description: "backup: unknown option \(argument) (usage: openmarket-admin backup DIR [--data DATA])")
            } else if destination == nil {
                destination = argument
            } else {
                throw Problem(description: "backup takes one folder, not also '\(argument)'")
            }
        }
        guard let destination, !destination.isEmpty else {
            throw Problem(description: "backup needs a folder to write to (usage: openmarket-admin backup DIR [--data DATA])")
        }
        return BackupCommand(dataDirectory: data, destination: destination)
    }
}
