import Foundation
import OpenMarketCore

/// The `openmarket-sandbox` command line: flags onto a `SandboxConfiguration`.
public enum SandboxCommandLine {
    public enum Command: Sendable {
        case help
        case run(SandboxConfiguration)
    }

    public static let usage = """
        usage: openmarket-sandbox [--host H] [--port P] [--data DIR] [--dialect v1|v2a|v2b] [--strict]
                                  [--vendor NAME:IDENTIFIER:SECRET]... [--seed N]

        Runs the embedded Open Market API sandbox alone.
          --host H        address to listen on (default 127.0.0.1)
          --port P        port to listen on, 0 for any free port (default 8081)
          --data DIR      data folder: database, images, optional vendors.json (default ./.openmarket)
          --dialect D     v2a (snake_case pages, default), v2b (camelCase pages, archive delete)
                          or v1 (the 2021 API: /items/{page}, /item/{id}, a password per product;
                          --vendor is accepted and ignored; --seed items have the password
                          "\(V1SampleItems.password)")
          --strict        also refuse names under 3 and descriptions under 10 characters
          --vendor V      add or update a vendor NAME:IDENTIFIER:SECRET (repeatable)
          --seed N        fill an empty store with N sample products
          --help          show this help
        """

    /// Parses the arguments after the program name; a bad flag throws a one-line reason.
    public static func parse(_ arguments: [String],
                             currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        throws(SandboxStartupError) -> Command {
        var configuration = SandboxConfiguration(dataDirectory: currentDirectory.appendingPathComponent(".openmarket"))
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            func value() throws(SandboxStartupError) -> String {
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    throw SandboxStartupError("\(flag) needs a value (see --help)")
                }
                return value
            }
            switch flag {
            case "--help", "-h":
                return .help
            case "--host":
                configuration.host = try value()
            case "--port":
                let text = try value()
                guard let port = Int(text), (0...65_535).contains(port) else {
                    throw SandboxStartupError("--port must be a number from 0 to 65535, not \"\(text)\"")
                }
                configuration.port = port
            case "--data":
                let path = try value()
                configuration.dataDirectory = path.hasPrefix("/")
                    ? URL(fileURLWithPath: path, isDirectory: true)
                    : currentDirectory.appendingPathComponent(path, isDirectory: true).standardizedFileURL
            case "--dialect":
                let text = try value()
                guard let dialect = Dialect(rawValue: text) else {
                    throw SandboxStartupError("--dialect must be v1, v2a or v2b, not \"\(text)\"")
                }
                configuration.dialect = dialect
            case "--strict":
                configuration.strict = true
            case "--vendor":
                // The value holds a secret: never echo it back in the error.
                guard let seed = VendorSeed(argument: try value()) else {
                    throw SandboxStartupError("--vendor must be NAME:IDENTIFIER:SECRET with no part empty")
                }
                configuration.vendors.append(seed)
            case "--seed":
                let text = try value()
                guard let count = Int(text), (0...100_000).contains(count) else {
                    throw SandboxStartupError("--seed must be a number from 0 to 100000, not \"\(text)\"")
                }
                configuration.seed = count
            default:
                throw SandboxStartupError("unknown option \"\(flag)\" (see --help)")
            }
        }
        return .run(configuration)
    }
}
