import Foundation
import HTTPServer
import OpenMarketCore

extension SandboxAPI {
    /// `POST /api/products`: multipart with a `params` JSON part and 1–5 `images` parts.
    func register(_ request: HTTPRequest) async throws -> HTTPResponse {
        let vendor = try await credentials.vendor(of: request)
        guard let contentType = request.headers["content-type"]?.lowercased(),
              contentType.hasPrefix("multipart/form-data") else {
            throw APIFailure.badRequest("body: must be multipart/form-data with a params part and images parts")
        }
        let form = try await request.multipartForm(limits: Self.multipartLimits, spoolDirectory: spoolDirectory)
        // Clients sent `params` as a plain field or as a part with its own Content-Type/filename.
        let paramsData: Data
        if let text = form.fields["params"] {
            paramsData = Data(text.utf8)
        } else if let file = form.files(named: "params").first {
            paramsData = try file.data()
        } else {
            throw APIFailure.badRequest("params: the part is missing")
        }
        let params = try JSONValue.object(from: paramsData, what: "params")
        try credentials.check(secret: try input.secret(in: params), of: vendor)

        // Report broken field rules and broken images together.
        var messages: [String] = []
        var registration: ProductFields?
        do { registration = try input.registration(from: params) } catch { messages.append(error.message) }
        var images: [ProductInput.CheckedImage] = []
        do {
            images = try ProductInput.checkImages(form.files(named: "images"))
        } catch let failure as APIFailure {
            messages.append(failure.message)
        }
        guard messages.isEmpty, let registration else { throw APIFailure.badRequest(messages.joined(separator: "; ")) }

        let files = try await store.media.storeAll(images.map { (bytes: $0.bytes, fileExtension: $0.format.fileExtension) })
        let draft = ProductDraft(vendorID: vendor.id, fields: registration, imageFiles: files)
        let product: ProductRecord
        do {
            product = try await store.insert(draft)
        } catch {
            store.media.remove(files)   // no orphan files when the row did not commit
            throw error
        }
        return Self.jsonResponse(writer(for: request).detail(product))
    }

    /// The form limits of every write, v1 and v2. The real servers refused a form for its size
    /// alone, so only the body limit may answer 413: the rules (a field sent twice, six images,
    /// a name too long, an image too big) answer 400 with their own message, and unknown parts are
    /// ignored however many there are. The part count and a text part's size are therefore caps
    /// no body within `maxBody` reaches: every part takes at least `minimumPartBytes` (its
    /// delimiter line and a Content-Disposition with a name), and no text part is larger than the
    /// body. What a form holds in memory stays proportional to the body. A part's headers keep
    /// their own 16 KiB cap (documented as a 413): the parser looks for their end in what it holds.
    static var multipartLimits: MultipartLimits {
        MultipartLimits(maxParts: maxBody / minimumPartBytes, maxHeaderBytesPerPart: 16 * 1024, maxFieldBytes: maxBody,
                        maxFileBytes: maxBody, spoolThreshold: 1024 * 1024)
    }

    /// Fewer bytes than the smallest part has: `\r\n--b\r\n`, `content-disposition:form-data;name=`, `\r\n\r\n`.
    static let minimumPartBytes = 32

    /// `PATCH /api/products/{id}`: JSON with `secret` and the fields to change.
    func edit(_ request: HTTPRequest) async throws -> HTTPResponse {
        let vendor = try await credentials.vendor(of: request)
        let id = try Self.productID(request, parameter: "id")
        let body = try JSONValue.object(from: try await Self.collectBody(request), what: "body")
        try credentials.check(secret: try input.secret(in: body), of: vendor)
        let changes = try input.changes(from: body)
        let input = self.input
        let product = try await store.update(id: id, vendorID: vendor.id) { current in
            try input.apply(changes, to: current)
        }
        return Self.jsonResponse(writer(for: request).detail(product))
    }

    /// Reads `{"secret": "<vendor secret>"}` of the delete-step-one requests and checks it.
    private func vendorForDeletion(_ request: HTTPRequest) async throws -> VendorRecord {
        let vendor = try await credentials.vendor(of: request)
        let body = try JSONValue.object(from: try await Self.collectBody(request), what: "body")
        try credentials.check(secret: try input.secret(in: body), of: vendor)
        return vendor
    }

    /// v2a `POST /api/products/{id}/secret` → the product secret (a UUID), text/plain.
    func issueProductSecret(_ request: HTTPRequest) async throws -> HTTPResponse {
        let vendor = try await vendorForDeletion(request)
        let id = try Self.productID(request, parameter: "id")
        let token = try await store.issueToken(.productSecret, productID: id, vendorID: vendor.id)
        return HTTPResponse.text(token)
    }

    /// v2a `DELETE /api/products/{id}/{product secret}` → the deleted product's detail.
    func deleteWithProductSecret(_ request: HTTPRequest) async throws -> HTTPResponse {
        let vendor = try await credentials.vendor(of: request)
        let id = try Self.productID(request, parameter: "id")
        let secret = request.pathParameters["secret"] ?? ""
        let product = try await store.delete(
            id: id, vendorID: vendor.id, token: secret, kind: .productSecret,
            wrongToken: .badRequest("product secret: wrong or already used; ask POST /api/products/\(id)/secret for one"))
        return Self.jsonResponse(writer(for: request).detail(product))
    }

    /// v2b `POST /api/products/{id}/archived` → the path to DELETE, text/plain.
    func archive(_ request: HTTPRequest) async throws -> HTTPResponse {
        let vendor = try await vendorForDeletion(request)
        let id = try Self.productID(request, parameter: "id")
        let token = try await store.issueToken(.archive, productID: id, vendorID: vendor.id)
        return HTTPResponse.text("/api/products/" + token)
    }

    /// v2b `DELETE /api/products/{token}` → the deleted product's detail.
    func deleteArchived(_ request: HTTPRequest) async throws -> HTTPResponse {
        let vendor = try await credentials.vendor(of: request)
        let token = request.pathParameters["token"] ?? ""
        let gone = APIFailure.notFound("no archived product at this path (it may be deleted already)")
        guard let id = try await store.productID(forArchiveToken: token) else { throw gone }
        let product = try await store.delete(id: id, vendorID: vendor.id, token: token, kind: .archive, wrongToken: gone)
        return Self.jsonResponse(writer(for: request).detail(product))
    }
}
