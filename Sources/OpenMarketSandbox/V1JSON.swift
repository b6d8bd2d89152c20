import Foundation
import HTTPServer

/// The v1 API's JSON exactly as the sandbox writes it (see "The v1 dialect" in the API notes):
/// compact, the key order of the camp's document samples, integers without a fraction,
/// `registration_date` as epoch seconds in shortest round-trip form, `discounted_price` only
/// when the item has one, never the password.
struct V1JSON: Sendable {
    /// "http://host:port" that image URLs start with.
    var mediaBase: String

    static let contentType = "application/json; charset=utf-8"

    func imageURL(_ fileName: String) -> String { mediaBase + "/images/" + V1MediaName.published(fileName) }
    func thumbnailURL(_ fileName: String) -> String { mediaBase + "/thumbnails/" + V1MediaName.published(fileName) }

    func page(_ page: Int, items: [V1ItemRecord]) -> String {
        var json = JSONText(capacity: 64 + items.count * 400)
        json.beginObject()
        json.member("page", page)
        json.key("items")
        json.beginArray()
        for item in items { write(item, detail: false, into: &json) }
        json.endArray()
        json.endObject()
        return json.text
    }

    func detail(_ item: V1ItemRecord) -> String {
        var json = JSONText(capacity: 600 + item.descriptions.utf8.count)
        write(item, detail: true, into: &json)
        return json.text
    }

    private func write(_ item: V1ItemRecord, detail: Bool, into json: inout JSONText) {
        json.beginObject()
        json.member("id", item.id)
        json.member("title", item.title)
        if detail { json.member("descriptions", item.descriptions) }
        json.member("price", item.price)
        json.member("currency", item.currency)
        json.member("stock", item.stock)
        if let discount = item.discountedPrice { json.member("discounted_price", discount) }
        json.key("thumbnails")
        json.beginArray()
        for file in item.imageFiles { json.string(thumbnailURL(file)) }
        json.endArray()
        if detail {
            json.key("images")
            json.beginArray()
            for file in item.imageFiles { json.string(imageURL(file)) }
            json.endArray()
        }
        json.key("registration_date")
        json.raw(Self.epochSeconds(item.registrationDate))
        json.endObject()
    }

    /// Shortest round-trip digits with a fraction (`1611523563.7237701`, `1620634155.0`). Swift's
    /// description is that form for every date from 1970 to 2286 (below 10^16, no exponent).
    static func epochSeconds(_ seconds: Double) -> String {
        let text = String(seconds)
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    static func error(_ failure: V1Failure) -> String {
        var json = JSONText(capacity: 64)
        json.beginObject()
        json.member("error", true)
        json.member("reason", failure.reason)
        json.endObject()
        return json.text
    }

    static func response(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: .data(Data(text.utf8)))
    }

    static func response(_ failure: V1Failure) -> HTTPResponse {
        response(error(failure), status: failure.status)
    }
}

/// v1 image URLs end in `<UPPERCASE UUID>.<ext>` like the live server's; the media folder keeps
/// the same 128 random bits as 32 lowercase hex digits (its one naming rule), so the two forms
/// map onto each other exactly.
enum V1MediaName {
    /// `3371e6022c2947348a9a83a37dd24eae.png` → `3371E602-2C29-4734-8A9A-83A37DD24EAE.png`.
    static func published(_ fileName: String) -> String {
        let parts = fileName.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 32 else { return fileName }
        let hex = Array(parts[0].uppercased())
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
        return groups.joined(separator: "-") + "." + parts[1]
    }

    /// The stored file name of a published one, or nil when it is not of that form.
    static func stored(_ published: String) -> String? {
        let parts = published.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let groups = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12],
              groups.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) || (65...70).contains($0) } }) else {
            return nil
        }
        let name = groups.joined().lowercased() + "." + parts[1]
        return MediaDirectory.isGeneratedName(name) ? name : nil
    }
}
