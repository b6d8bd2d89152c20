import Foundation

extension HTTPRequest {
    /// Decodes an `application/x-www-form-urlencoded` body.
    /// Throws `HTTPError` 415 (other content type), 413 (limits) or 400 (malformed escapes).
    public func urlencodedForm(limits: FormLimits = FormLimits()) async throws -> FormFields {
        let type = headers["Content-Type"].map(MediaType.init)
        guard type?.essence == "application/x-www-form-urlencoded" else {
            throw HTTPError(status: 415, message: "Expected a form (application/x-www-form-urlencoded)")
        }
        return try URLEncodedForm.decode(try await body.collect(), limits: limits)
    }
}

enum URLEncodedForm {
    static func decode(_ data: Data, limits: FormLimits) throws -> FormFields {
        var fields = FormFields()
        let text = String(decoding: data, as: UTF8.self)
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard fields.items.count < limits.maxFields else { throw HTTPError(status: 413, message: "Too many form fields (at most \(limits.maxFields))", limit: .fields(max: limits.maxFields)) }
            let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(pieces[0], plusAsSpace: true),
                  let value = PercentDecoding.decode(pieces.count > 1 ? pieces[1] : "", plusAsSpace: true) else {
                throw HTTPError(status: 400, message: "Malformed form encoding")
            }
            guard name.utf8.count <= limits.maxFieldBytes, value.utf8.count <= limits.maxFieldBytes else {
                throw HTTPError(status: 413, message: "Form field is too large (at most \(limits.maxFieldBytes) bytes)")
            }
            fields.append(name, value)
        }
        return fields
    }
}

/// A parsed media type: `multipart/form-data; boundary="x"` → essence and parameters.
struct MediaType {
    /// Lowercased `type/subtype`.
    var essence: String
    /// Parameter names lowercased; values unquoted.
    var parameters: [String: String]

    init(_ header: String) {
        let parts = HeaderParameters.split(header)
        essence = parts.first.map { $0.trimmingSpaces().lowercased() } ?? ""
        parameters = HeaderParameters.parse(parts.dropFirst())
    }
}

/// `; name=value; name="quoted \" value"` parameter lists, as in Content-Type and
/// Content-Disposition.
enum HeaderParameters {
    /// Splits on `;` outside quoted strings.
    static func split(_ s: String) -> [Substring] {
        var parts: [Substring] = []
        var inQuotes = false, escaped = false
        var begin = s.startIndex
        for i in s.indices {
            let c = s[i]
            if escaped { escaped = false; continue }
            if inQuotes && c == "\\" { escaped = true; continue }
            if c == "\"" { inQuotes.toggle() }
            if c == ";" && !inQuotes {
                parts.append(s[begin..<i])
                begin = s.index(after: i)
            }
        }
        parts.append(s[begin...])
        return parts
    }

    static func parse(_ parts: some Sequence<Substring>) -> [String: String] {
        var result: [String: String] = [:]
        for part in parts {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let name = part[..<eq].trimmingSpaces().lowercased()
            let raw = part[part.index(after: eq)...].trimmingSpaces()
            guard !name.isEmpty, result[name] == nil else { continue }
            result[name] = unquote(raw)
        }
        return result
    }

    static func unquote(_ raw: Substring) -> String {
        guard raw.count >= 2, raw.first == "\"", raw.last == "\"" else { return String(raw) }
        var out = ""
        var escaped = false
        for c in raw.dropFirst().dropLast() {
            if escaped { out.append(c); escaped = false } else if c == "\\" { escaped = true } else { out.append(c) }
        }
        return out
    }
}
