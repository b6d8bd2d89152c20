import Foundation

/// The exact HTTP requests of the 2021 API. Pure, like `RequestFactory`, whose URL building it
/// uses (a base URL's path prefix is kept).
struct V1RequestFactory: Sendable {
    let base: RequestFactory

    private static let acceptJSON = HeaderField(name: "Accept", value: "application/json")
    /// Most 2021 clients named image parts `images[]`; the server took `images` too.
    static let imagePartName = "images[]"

    func page(_ page: Int) -> TransportRequest {
        request("GET", base.url(path: "/items/\(page)"), headers: [Self.acceptJSON])
    }

    func item(id: Int) -> TransportRequest {
        request("GET", base.url(path: "/item/\(id)"), headers: [Self.acceptJSON])
    }

    func register(_ item: V1NewItem, boundary: String) -> TransportRequest {
        var fields: [(String, String)] = [
            ("title", item.title), ("descriptions", item.descriptions), ("price", String(item.price)),
            ("currency", item.currency.rawValue), ("stock", String(item.stock)),
        ]
        if let discount = item.discountedPrice { fields.append(("discounted_price", String(discount))) }
        fields.append(("password", item.password))
        return multipart("POST", base.url(path: "/item"), fields: fields, images: item.images, boundary: boundary)
    }

    func edit(id: Int, _ changes: V1ItemChanges, boundary: String) -> TransportRequest {
        var fields: [(String, String)] = []
        if let title = changes.title { fields.append(("title", title)) }
        if let descriptions = changes.descriptions { fields.append(("descriptions", descriptions)) }
        if let price = changes.price { fields.append(("price", String(price))) }
        if let currency = changes.currency { fields.append(("currency", currency.rawValue)) }
        if let stock = changes.stock { fields.append(("stock", String(stock))) }
        if let discount = changes.discountedPrice { fields.append(("discounted_price", String(discount))) }
        fields.append(("password", changes.password))
        return multipart("PATCH", base.url(path: "/item/\(id)"), fields: fields, images: changes.images ?? [],
                         boundary: boundary)
    }

    func delete(id: Int, password: String) -> TransportRequest {
        request("DELETE", base.url(path: "/item/\(id)"),
                headers: [HeaderField(name: "Content-Type", value: "application/json"), Self.acceptJSON],
                body: RequestJSON.object(["password": .string(password)]))
    }

    private func multipart(_ method: String, _ url: URL, fields: [(String, String)], images: [ImageUpload],
                           boundary: String) -> TransportRequest {
        let encoder = MultipartEncoder(boundary: boundary)
        return request(method, url,
                       headers: [HeaderField(name: "Content-Type", value: encoder.contentType), Self.acceptJSON],
                       body: encoder.encode(fields: fields, images: images, imagePartName: Self.imagePartName))
    }

    private func request(_ method: String, _ url: URL, headers: [HeaderField], body: Data? = nil) -> TransportRequest {
        TransportRequest(method: method, url: url, headers: headers, body: body, timeout: base.configuration.timeout)
    }
}

extension MultipartEncoder {
    /// A form of plain text parts (no Content-Type, as browsers send them) followed by one part
    /// per image named `imagePartName`, each with a filename and its real format's type.
    func encode(fields: [(String, String)], images: [ImageUpload], imagePartName: String) -> Data {
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
            body.append(Data(value.utf8))
            body.append(Data("\r\n".utf8))
        }
        for (index, image) in images.enumerated() {
            let format = ImageFormat.detect(image.data)
            let filename = image.filename.isEmpty
                ? "image-\(index + 1).\(format?.fileExtension ?? "bin")" : image.filename
            appendPart(to: &body,
                       disposition: "form-data; name=\"\(imagePartName)\"; " + Self.filenameParameters(filename),
                       contentType: format?.mimeType ?? "application/octet-stream", content: image.data)
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }
}
