import Foundation

/// A vendor given on the command line (`--vendor NAME:IDENTIFIER:SECRET`) or in `vendors.json`.
public struct VendorSeed: Sendable, Equatable, Codable {
    public var name: String
    public var identifier: String
    public var secret: String

    public init(name: String, identifier: String, secret: String) {
        self.name = name
        self.identifier = identifier
        self.secret = secret
    }

    /// Parses "NAME:IDENTIFIER:SECRET"; the secret is everything after the second colon (so it may
    /// contain colons). Nil when a part is missing or empty.
    public init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        self.init(name: String(parts[0]), identifier: String(parts[1]), secret: String(parts[2]))
    }
}

/// A start-up problem with a one-line reason (bad vendors file, unusable data folder…).
public struct SandboxStartupError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Sets up the vendors of a store at start: the demo vendor (created once, on the first start,
/// with a random identifier and password), then `vendors.json` of the data folder, then the
/// configured seeds — each adds a vendor or updates the one with the same identifier.
enum VendorSetup {
    static let vendorsFileName = "vendors.json"
    private static let demoVendorKey = "demo_vendor_id"
    static let demoVendorName = "demo"

    struct DemoVendor: Sendable {
        var record: VendorRecord
        var created: Bool
    }

    static func run(store: ProductStore, dataDirectory: URL, seeds: [VendorSeed]) throws -> DemoVendor {
        let demo = try demoVendor(store: store)
        for seed in try fileSeeds(in: dataDirectory) + seeds {
            guard !seed.name.isEmpty, !seed.identifier.isEmpty, !seed.secret.isEmpty else {
                throw SandboxStartupError("a vendor needs a name, an identifier and a secret")
            }
            try store.upsertVendor(name: seed.name, identifier: seed.identifier, secret: seed.secret)
        }
        // A seed may have renamed the demo vendor or changed its secret: report it as it is now.
        let current = try store.vendor(id: demo.record.id) ?? demo.record
        return DemoVendor(record: current, created: demo.created)
    }

    private static func demoVendor(store: ProductStore) throws -> DemoVendor {
        if let stored = try store.setting(demoVendorKey), let id = Int(stored), let vendor = try store.vendor(id: id) {
            return DemoVendor(record: vendor, created: false)
        }
        let vendor = try store.upsertVendor(name: demoVendorName, identifier: RandomToken.uuid(),
                                            secret: RandomToken.password())
        try store.setSetting(demoVendorKey, String(vendor.id))
        return DemoVendor(record: vendor, created: true)
    }

    /// `vendors.json`: `[{"name": "…", "identifier": "…", "secret": "…"}, …]`; absent is fine.
    static func fileSeeds(in dataDirectory: URL) throws -> [VendorSeed] {
        let url = dataDirectory.appendingPathComponent(vendorsFileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JSONDecoder().decode([VendorSeed].self, from: Data(contentsOf: url))
        } catch {
            throw SandboxStartupError("\(url.path) is not a JSON array of {\"name\", \"identifier\", \"secret\"} objects")
        }
    }
}
