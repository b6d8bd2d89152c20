import Foundation
import OpenMarketCore
import Testing
import TestSupport
@testable import HTTPServer
@testable import OpenMarketSandbox

/// Each dialect's OpenAPI document (docs/openapi/<dialect>.yaml) lists exactly the routes the
/// sandbox serves: a route added to the router without its description fails here, and so does
/// a documented operation no route answers. Parameter names may differ (`{product_secret}` in the
/// document is the router's `{secret}`), so both sides compare with `{}` in their place.
@Suite struct OpenAPIDocumentTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: [Dialect.v2a, .v2b, .v1])
    func documentListsEveryRouteTheSandboxServes(dialect: Dialect) async throws {
        let served = try await Self.servedOperations(dialect)
        let documented = try Self.documentedOperations(dialect)
        #expect(served.count >= 14, "the router's table was not read: \(served)")
        #expect(served.subtracting(documented).isEmpty,
                "served but missing from docs/openapi/\(dialect.rawValue).yaml: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty,
                "documented but not served: \(documented.subtracting(served).sorted())")
    }

    @Test func theReaderFindsPathsAndMethodsOnly() {
        let text = """
            paths:
              /a/{id}:
                get:
                  parameters: &p
                    - name: x
                delete:
                  responses: {}
              /a/{id}/:
                post: {}
            components:
              schemas:
                get:
                  type: object
            """
        #expect(Self.operations(inYAML: text) == ["GET /a/{}", "DELETE /a/{}", "POST /a/{}/"])
    }

    /// "METHOD /path/{}" for every route of the dialect's router.
    static func servedOperations(_ dialect: Dialect) async throws -> Set<String> {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let baseURL = Locked("http://127.0.0.1:8081")
        let router: Router<BasicRequestContext>
        if dialect == .v1 {
            let store = try V1Store(directory: folder.url)
            router = V1API(store: store, input: V1Input(strict: false), baseURL: baseURL).router()
            await store.close()
        } else {
            let store = try ProductStore(directory: folder.url)
            router = SandboxAPI(store: store, dialect: dialect, input: ProductInput(dialect: dialect, strict: false),
                                baseURL: baseURL).router()
            await store.close()
        }
        return Set(router.routes.map { $0.method + " " + anonymous($0.pattern.template) })
    }

    static func documentedOperations(_ dialect: Dialect) throws -> Set<String> {
        let url = repository.appendingPathComponent("docs/openapi/\(dialect.rawValue).yaml")
        return Set(operations(inYAML: try String(contentsOf: url, encoding: .utf8)))
    }

    /// A reader for the one layout the documents use: `paths:` at the margin, each path two
    /// spaces in (`  /api/products/{id}:`), each operation four (`    get:`). The section ends
    /// at the next line at the margin.
    static func operations(inYAML text: String) -> [String] {
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var inPaths = false
        var path: String?
        var found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.isEmpty {
                inPaths = line.hasPrefix("paths:")
                path = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).prefix { $0 != ":" })
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let key = line.dropFirst(4).prefix { $0 != ":" }
                if methods.contains(String(key)) { found.append(key.uppercased() + " " + anonymous(path)) }
            }
        }
        return found
    }

    /// The path with every `{name}` written `{}`.
    static func anonymous(_ path: String) -> String {
        path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "{}", options: .regularExpression)
    }
}
