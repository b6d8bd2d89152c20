import Foundation
import HTTPServer
import OpenMarketCore

/// The 2021 API (`--dialect v1`) on HTTPServer's router: `/items/{page}`, `/item[/{id}]`, the
/// image and thumbnail URLs, each also with one trailing slash. Everything else is 404 `Not Found`
/// in Vapor's error shape, the v2 routes and wrong methods included.
struct V1API: Sendable {
    let store: V1Store
    let input: V1Input
    /// "http://host:port" as configured; known only after the listener started.
    let baseURL: Locked<String>
    /// Where large multipart parts are spooled: the sandbox's folder under DATA/uploads.
    var spoolDirectory: URL?

    static let itemsPerPage = 20

    func router() -> Router<BasicRequestContext> {
        var router = Router()
        let limit = SandboxAPI.maxBody
        let json = Self.catching
        for slash in ["", "/"] {
            router.get("/items/{page}" + slash, json { try await page($0) })
            router.get("/item/{id}" + slash, json { try await detail($0) })
            router.post("/item" + slash, bodyLimit: limit, json { try await register($0) })
            router.patch("/item/{id}" + slash, bodyLimit: limit, json { try await edit($0) })
            router.delete("/item/{id}" + slash, bodyLimit: limit, json { try await delete($0) })
            router.get("/images/{name}" + slash) { media($0) }
            router.get("/thumbnails/{name}" + slash) { media($0) }
        }
        router.payloadTooLargeHandler = { _, _ in
            V1JSON.response(V1Failure(status: 413, reason: "the request body is too large: at most \(limit) bytes (\(limit >> 20) MiB) are accepted"))
        }
        router.notFoundHandler = { _, _ in V1JSON.response(.notFound) }
        // A known path with another method is no route in v1 either (Vapor answered 404).
        router.use { request, next in
            let response = try await next(request)
            if response.status == 405 { return V1JSON.response(.notFound) }
            return response
        }
        return router
    }

    /// Whatever a handler throws becomes `{"error":true,"reason":…}`.
    static func catching(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { request in
            do {
                return try await handler(request)
            } catch let failure as V1Failure {
                return V1JSON.response(failure)
            } catch let error as HTTPError {
                // Body parsing: malformed multipart (400), over a form limit (413, named), a
                // field that is not UTF-8 (400, named). A wrong content type is a 400 here.
                let status = error.status == 415 ? 400 : error.status
                return V1JSON.response(V1Failure(status: status, reason: "body: " + error.message))
            } catch {
                let route = request.routeTemplate ?? "-"
                FileHandle.standardError.write(Data("sandbox: \(request.method) \(route) failed: \(error)\n".utf8))
                return V1JSON.response(V1Failure(status: 500, reason: "the sandbox failed to answer; see its log"))
            }
        }
    }

    func writer(for request: HTTPRequest) -> V1JSON {
        if let host = request.headers["host"], SandboxAPI.isPlausibleHost(host) {
            return V1JSON(mediaBase: "http://" + host)
        }
        return V1JSON(mediaBase: baseURL.value)
    }

    // MARK: Reading

    /// `GET /items/{page}`: 20 items, oldest first; past the end an empty `items`.
    func page(_ request: HTTPRequest) async throws -> HTTPResponse {
        let text = request.pathParameters["page"] ?? ""
        guard let page = V1Integer.parse(text), page >= 1 else {
            throw V1Failure.badRequest("page: must be a whole number of 1 or more")
        }
        let items = try await store.page(page, size: Self.itemsPerPage)
        return V1JSON.response(writer(for: request).page(page, items: items))
    }

    func detail(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.itemID(request)
        guard let item = try await store.item(id: id) else { throw V1Failure.notFound }
        return V1JSON.response(writer(for: request).detail(item))
    }

    /// A decimal integer within 64 bits, else 400; one that names no item is a 404 later.
    static func itemID(_ request: HTTPRequest) throws(V1Failure) -> Int {
        guard let id = V1Integer.parse(request.pathParameters["id"] ?? "") else {
            throw .badRequest("id: must be a whole number")
        }
        return id
    }

    func media(_ request: HTTPRequest) -> HTTPResponse {
        guard let name = V1MediaName.stored(request.pathParameters["name"] ?? ""),
              let path = store.media.path(of: name), FileManager.default.fileExists(atPath: path) else {
            return V1JSON.response(.notFound)
        }
        return MediaResponses(directory: store.media).response(name: name, request: request)
    }

    // MARK: Writing

    /// The multipart form of a write; anything but `multipart/form-data` is a 400.
    private func form(_ request: HTTPRequest) async throws -> V1Input.Form {
        guard let contentType = request.headers["content-type"]?.lowercased(),
              contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "multipart/form-data" else {
            throw V1Failure.badRequest("body: must be multipart/form-data")
        }
        let multipart = try await request.multipartForm(limits: SandboxAPI.multipartLimits, typedPartsAreFiles: true,
                                                            spoolDirectory: spoolDirectory)
        return try V1Input.form(multipart)
    }

    /// `POST /item`: all text fields and 1–5 images → 200 with the new item.
    func register(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = try await form(request)
        let password = try V1Input.password(in: form)
        try V1Input.checkImageCount(form.images)
        let fields = try input.registration(form)
        let images = try V1Input.checkImages(form.images, required: true)
        let files = try await store.media.storeAll(images.map { (bytes: $0.bytes, fileExtension: $0.format.fileExtension) })
        let record = V1ItemRecord(id: 0, title: fields.title, descriptions: fields.descriptions, price: fields.price,
                                  currency: fields.currency, stock: fields.stock, discountedPrice: fields.discountedPrice,
                                  password: password, registrationDate: Self.now(), imageFiles: files)
        let item: V1ItemRecord
        do {
            item = try await store.insert(record)
        } catch {
            store.media.remove(files)
            throw error
        }
        return V1JSON.response(writer(for: request).detail(item))
    }

    /// `PATCH /item/{id}`: the password and any subset of the fields; images, when sent, replace
    /// all of them. Only the password: nothing changes, the answer is the item.
    func edit(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.itemID(request)
        // The documented order: the id, the body's form, the password, then the rules.
        guard try await store.item(id: id) != nil else { throw V1Failure.notFound }
        let form = try await form(request)
        let password = try V1Input.password(in: form)
        // Checked again in the write transaction; here so that no file is written for nothing.
        guard let current = try await store.item(id: id) else { throw V1Failure.notFound }
        guard current.password == password else { throw V1Failure.wrongPassword }
        try V1Input.checkImageCount(form.images)
        _ = try input.apply(form, to: current.fields)
        let images = try V1Input.checkImages(form.images, required: false)
        var files: [String]?
        if !images.isEmpty {
            files = try await store.media.storeAll(images.map { (bytes: $0.bytes, fileExtension: $0.format.fileExtension) })
        }
        let input = self.input
        let item: V1ItemRecord
        do {
            item = try await store.update(id: id, password: password, newImages: files) { stored in
                try input.apply(form, to: stored.fields)
            }
        } catch {
            if let files { store.media.remove(files) }
            throw error
        }
        return V1JSON.response(writer(for: request).detail(item))
    }

    /// `DELETE /item/{id}` with `{"password":"…"}` (read as JSON whatever the Content-Type; an
    /// `id` member is ignored: the path decides) → 200 with the deleted item.
    func delete(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.itemID(request)
        guard try await store.item(id: id) != nil else { throw V1Failure.notFound }
        let body = try await request.body.collect()
        let password: String
        switch try? JSONValue.parse(body) {
        case .object(let members)?:
            guard case .string(let text)? = members["password"], !text.isEmpty else {
                throw V1Failure.badRequest("password: is required (a non-empty string)")
            }
            if let problem = TextRules.controlCharacterProblem(text) { throw V1Failure.badRequest("password: \(problem)") }
            password = text
        default:
            throw V1Failure.badRequest("body: must be a JSON object with a password")
        }
        let item = try await store.delete(id: id, password: password)
        return V1JSON.response(writer(for: request).detail(item))
    }

    /// Now in epoch seconds, to the microsecond (what the live server's dates show).
    static func now() -> Double {
        (Date().timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000
    }
}
