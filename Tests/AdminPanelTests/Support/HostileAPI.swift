import Foundation
import TestSupport
import HTTPServer
import OpenMarketCore

/// A stand-in Open Market API whose products each carry one odd value — numbers beyond any
/// integer or float, a name sent as a number, negative stock, fractions where whole numbers
/// belong, huge strings, NUL and lone surrogates, wrong types, odd dates, 500 images,
/// `javascript:`/`file:` URLs — in list and detail answers, in v2a, v2b or v1. Edits are
/// answered with the product as it is (nothing is stored): the panel's reading is under test.
final class HostileAPI: @unchecked Sendable {
    /// One product: the JSON text of each member that differs from a plain product.
    struct Case: Sendable {
        var id: Int
        var label: String
        var members: [String: String] = [:]
        /// Only in the detail answer (a huge description, many images).
        var detailMembers: [String: String] = [:]
        /// Expected to be unreadable in a list answer, and a 502 naming `field` on its page.
        var unreadableField: String?
        /// The id cannot be read: no detail page to visit.
        var idUnreadable = false
    }

    static let vendorID = 7
    static let hugeName = String(repeating: "가나다라마바사아자차", count: 20_000)   // 200,000 characters
    static let hugeDescription = String(repeating: "A very long description. ", count: 6 * 1024 * 1024 / 25)  // 6 MB

    let dialect: Dialect
    let cases: [Case]
    private var stub: StubAPI!
    private let lock = NSLock()
    private var edits = 0

    var url: URL { stub.url }
    var editCount: Int { lock.withLock { edits } }

    init(dialect: Dialect) throws {
        self.dialect = dialect
        cases = Self.cases(dialect)
        stub = try StubAPI { [unowned self] request in self.answer(request) }
    }

    func stop() async { await stub.stop() }

    var readable: [Case] { cases.filter { $0.unreadableField == nil } }
    var unreadable: [Case] { cases.filter { $0.unreadableField != nil } }

    // MARK: the products

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func cases(_ dialect: Dialect) -> [Case] {
        let v1 = dialect == .v1
        let manyImages = "[" + (1...500).map { number in
            v1 ? "\"http://127.0.0.1:1/img/\(number).png\""
               : #"{"id": \#(number), "url": "http://127.0.0.1:1/img/\#(number).png", "thumbnail_url": "http://127.0.0.1:1/t/\#(number).png", "succeed": true, "issued_at": "2022-01-04T00:00:00.00"}"#
        }.joined(separator: ",") + "]"
        let nameKey = v1 ? "title" : "name"
        let descriptionKey = v1 ? "descriptions" : "description"
        let dateKey = v1 ? "registration_date" : "created_at"
        var cases: [Case] = [
            Case(id: 1, label: "plain"),
            Case(id: 2, label: "price Int.max", members: ["price": "9223372036854775807", v1 ? "discounted_price" : "bargain_price": v1 ? "0" : "9223372036854775807"]),
            Case(id: 3, label: "price beyond Double", members: ["price": "1e400"], unreadableField: "price"),
            Case(id: 4, label: "name as number", members: [nameKey: "12345"], unreadableField: nameKey),
            Case(id: 5, label: "negative stock", members: ["stock": "-5"]),
            Case(id: 6, label: "fractional stock", members: ["stock": "2.5"], unreadableField: "stock"),
            Case(id: 7, label: "200k-character name", members: [nameKey: quoted(hugeName)]),
            Case(id: 8, label: "6 MB description", detailMembers: [descriptionKey: quoted(hugeDescription)]),
            Case(id: 9, label: "NUL and lone surrogate", members: [nameKey: #""Mug\u0000 with \ud800 lone""#]),
            Case(id: 10, label: "odd date", members: [dateKey: v1 ? "1e300" : #""0000-00-00T00:00:00""#], unreadableField: dateKey),
            Case(id: 11, label: "500 images", detailMembers: ["images": manyImages]),
            Case(id: 12, label: "javascript: and file: URLs",
                 members: [v1 ? "thumbnails" : "thumbnail": v1 ? #"["javascript:alert(1)"]"# : #""javascript:alert(1)""#],
                 detailMembers: ["images": v1 ? #"["file:///etc/passwd", "javascript:alert(1)"]"#
                                 : #"[{"id": 1, "url": "file:///etc/passwd", "thumbnail_url": "javascript:alert(1)"}]"#]),
            Case(id: 13, label: "unknown currency", members: ["currency": #""JPY""#], unreadableField: "currency"),
            Case(id: 14, label: "huge negative price", members: ["price": v1 ? "-9223372036854775808" : "-1e308", v1 ? "stock" : "bargain_price": v1 ? "1" : "-1e308"]),
            Case(id: 15, label: "id beyond Int", members: ["id": "1e30"], unreadableField: "id", idUnreadable: true),
            Case(id: 16, label: "price 1e300", members: ["price": v1 ? "999999999999999999" : "1e300", v1 ? "stock" : "bargain_price": v1 ? "2" : "1e300"]),
            Case(id: 17, label: "stock beyond Int", members: ["stock": "99999999999999999999"], unreadableField: "stock"),
            Case(id: 18, label: "last representable date", members: [dateKey: v1 ? "253402300799.5" : #""9999-12-31T23:59:59.99""#]),
            Case(id: 19, label: "name of the wrong type", members: [nameKey: "[]"], unreadableField: nameKey),
            Case(id: 20, label: "discount above price", members: ["discounted_price": v1 ? "9223372036854775807" : "5e18"]),
        ]
        if !v1 {
            cases.append(Case(id: 21, label: "vendor id as string", members: ["vendor_id": #""seven""#], unreadableField: "vendor_id"))
        }
        return cases
    }

    private func plainMembers(_ id: Int, detail: Bool) -> [(String, String)] {
        switch dialect {
        case .v1:
            var members = [("id", "\(id)"), ("title", #""Hostile mug \#(id)""#), ("price", "12000"), ("currency", #""KRW""#),
                           ("stock", "5"), ("discounted_price", "1000"),
                           ("thumbnails", #"["http://127.0.0.1:1/t/\#(id).png"]"#), ("registration_date", "1611523563.719116")]
            if detail {
                members += [("descriptions", #""A hostile product.""#), ("images", #"["http://127.0.0.1:1/img/\#(id).png"]"#)]
            }
            return members
        case .v2a, .v2b:
            var members = [("id", "\(id)"), ("vendor_id", "\(Self.vendorID)"), ("name", #""Hostile mug \#(id)""#),
                           ("thumbnail", #""http://127.0.0.1:1/t/\#(id).png""#), ("currency", #""KRW""#), ("price", "12000"),
                           ("bargain_price", "11000"), ("discounted_price", "1000"), ("stock", "5"),
                           ("created_at", #""2022-01-04T00:00:00.00""#), ("issued_at", #""2022-01-04T00:00:00.00""#)]
            if dialect == .v2b { members.append(("vendorName", #""hostile""#)) }
            if detail || dialect == .v2b { members.append(("description", #""A hostile product.""#)) }
            if detail {
                members.append(("images", #"[{"id": 1, "url": "http://127.0.0.1:1/img/\#(id).png", "thumbnail_url": "http://127.0.0.1:1/t/\#(id).png"}]"#))
                members.append(("vendors", #"{"id": 7, "name": "hostile"}"#))
            }
            return members
        }
    }

    func json(_ item: Case, detail: Bool) -> String {
        var members = plainMembers(item.id, detail: detail)
        // v2b list items carry the description too: the huge one goes there as well.
        let overrides = detail || dialect == .v2b ? item.members.merging(item.detailMembers) { a, _ in a } : item.members
        for (key, value) in overrides {
            if dialect == .v2b, !detail, key == "images" { continue }
            if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = value } else { members.append((key, value)) }
        }
        return "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    func listAnswer(page: Int) -> String {
        let items = page == 1 ? cases.map { json($0, detail: false) } : []
        switch dialect {
        case .v1:
            return #"{"page": \#(page), "items": [\#(items.joined(separator: ","))]}"#
        case .v2a:
            return #"{"page_no": \#(page), "items_per_page": 100, "total_count": \#(cases.count), "offset": 0, "limit": 100, "last_page": 1, "has_next": false, "has_prev": false, "pages": [\#(items.joined(separator: ","))]}"#
        case .v2b:
            return #"{"pageNo": \#(page), "itemsPerPage": 100, "totalCount": \#(cases.count), "offset": 0, "limit": 100, "lastPage": 1, "hasNext": false, "hasPrev": false, "pages": [\#(items.joined(separator: ","))]}"#
        }
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        if request.path == "/healthChecker" { return .text("\"OK\"") }
        func detail(_ idText: String) -> HTTPResponse {
            guard let id = Int(idText), let item = cases.first(where: { $0.id == id && !$0.idUnreadable }) else {
                return .json(Data(#"{"code": 404, "message": "no such product"}"#.utf8), status: 404)
            }
            if request.method != "GET" { lock.withLock { edits += 1 } }
            return .json(Data(json(item, detail: true).utf8))
        }
        switch dialect {
        case .v1:
            if parts.count == 2, parts[0] == "items", let page = Int(parts[1]) { return .json(Data(listAnswer(page: page).utf8)) }
            if parts.count == 2, parts[0] == "item" { return detail(parts[1]) }
        case .v2a, .v2b:
            if parts == ["api", "products"], request.method == "GET" {
                let page = Int(request.query["page_no"] ?? request.query["pageNo"] ?? "1") ?? 1
                guard page == 1 else { return HTTPResponse(status: 204) }
                return .json(Data(listAnswer(page: page).utf8))
            }
            if parts.count == 3, parts[0] == "api", parts[1] == "products" { return detail(parts[2]) }
        }
        return .json(Data(#"{"code": 404, "message": "not here"}"#.utf8), status: 404)
    }
}
