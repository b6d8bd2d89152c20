import Foundation

/// One HTTP response as a test reads it off the wire (a chunked body already joined).
public struct RawResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Parses a response head (status line and header lines, without the blank line).
    init(head: String) throws {
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, statusLine.hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw RawHTTPClient.Failure(description: "bad status line \"\(statusLine)\"")
        }
        self.status = status
        headers = lines.map { line in
            let pair = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(pair[0]), pair.count > 1 ? pair[1].trimmingCharacters(in: .whitespaces) : "")
        }
        body = Data()
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object, nil if it is not one.
    public var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    /// Every value of header `name` (any case), in order.
    public func headers(_ name: String) -> [String] { headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }
}
