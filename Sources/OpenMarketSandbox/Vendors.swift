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

/// Sets up the vendors of a store at start. Vendors come from `vendors.json` of the data folder
/// and then the configured seeds, each adding a vendor or updating the one with the same
/// identifier. With none at all, a demo vendor is created once (random identifier and password)
/// so the sandbox is usable out of the box.
enum VendorSetup {
    static let vendorsFileName = "vendors.json"
    private static let demoVendorKey = "demo_vendor_id"
    static let demoVendorName = "demo"

    /// The vendor the sandbox's own tools act for (the panel, `--seed`): the first configured
    /// vendor, else the demo vendor. `created` is true only when the demo vendor was made now.
    struct DemoVendor: Sendable {
        var record: VendorRecord
        var created: Bool
    }

    static func run(store: ProductStore, dataDirectory: URL, seeds: [VendorSeed]) throws -> DemoVendor {
        // Flags first: they are the more specific choice of the vendor to act for.
        let all = seeds + (try fileSeeds(in: dataDirectory))
        var primary: VendorRecord?
        for seed in all {
            guard !seed.name.isEmpty, !seed.identifier.isEmpty, !seed.secret.isEmpty else {
                throw SandboxStartupError("a vendor needs a name, an identifier and a secret")
            }
            let record = try store.upsertVendor(name: seed.name, identifier: seed.identifier, secret: seed.secret)
            primary = primary ?? record
        }
        if let primary { return DemoVendor(record: primary, created: false) }
        return try demoVendor(store: store)
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
