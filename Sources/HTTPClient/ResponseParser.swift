import Foundation
import NetworkIO

/// A pure parser for one HTTP/1.1 response, for `HTTPClient`: feed bytes, ask whether the
/// response is complete. Handles Content-Length, chunked and read-until-close bodies, and
/// responses that never have a body (HEAD, 1xx, 204, 304). Interim 1xx responses are skipped.
struct ResponseParser {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: Data
        /// The server allows another request on this connection.
        var reusable: Bool
    }

    enum Outcome {
        case complete(Response)
        case needMore
        case malformed
    }

    private enum Framing { case none, length(Int), chunked, untilClose }
    private enum State { case head, body, chunkSize, chunkData(Int), chunkDataEnd, trailers, done }

    private let isHeadRequest: Bool
    private let maxHeaderBytes = 64 * 1024
    private let maxBodyBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var state = State.head
    private var status = 0
    private var headers: [(String, String)] = []
    private var framing = Framing.none
    private var keepAlive = true
    private var body = Data()

    /// Bytes of the response received so far (0 means the server sent nothing at all).
    private(set) var receivedBytes = 0

    init(isHeadRequest: Bool, maxBodyBytes: Int = 64 * 1024 * 1024) {
        self.isHeadRequest = isHeadRequest
        self.maxBodyBytes = maxBodyBytes
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
        buffer.append(contentsOf: bytes)
        receivedBytes += bytes.count
    }

    /// The peer closed: completes a read-until-close body, else the response is cut short.
    mutating func finishAtEOF() -> Outcome {
        if case .body = state, case .untilClose = framing {
            return .complete(Response(status: status, headers: headers, body: body, reusable: false))
        }
        return .malformed
    }

    mutating func parse() -> Outcome {
        while true {
            switch state {
            case .done:
                return .complete(Response(status: status, headers: headers, body: body, reusable: keepAlive))
            case .head:
                guard let end = find([13, 10, 13, 10]) else {
                    return buffer.count - start > maxHeaderBytes ? .malformed : .needMore
                }
                let text = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end + 4
                guard parseHead(text) else { return .malformed }
                if (100..<200).contains(status) { headers = []; continue }   // interim response
            case .body:
                switch framing {
                case .none:
                    state = .done
                case .length(let remaining):
                    let n = min(remaining, buffer.count - start)
                    body.append(contentsOf: buffer[start..<(start + n)])
                    start += n
                    framing = .length(remaining - n)
                    if remaining - n == 0 { state = .done } else { return .needMore }
                case .untilClose:
                    body.append(contentsOf: buffer[start...])
                    start = buffer.count
                    if body.count > maxBodyBytes { return .malformed }
                    return .needMore
                case .chunked:
                    state = .chunkSize
                }
            case .chunkSize:
                guard let lineEnd = find([13, 10]) else { return buffer.count - start > 1024 ? .malformed : .needMore }
                let line = String(decoding: buffer[start..<lineEnd], as: UTF8.self)
                start = lineEnd + 2
                let digits = line.prefix { $0.isHexDigit }
                guard !digits.isEmpty, digits.count <= 15, let size = Int(digits, radix: 16) else { return .malformed }
                guard body.count + size <= maxBodyBytes else { return .malformed }
                state = size == 0 ? .trailers : .chunkData(size)
            case .chunkData(let remaining):
                guard start < buffer.count else { return .needMore }
                let n = min(remaining, buffer.count - start)
                body.append(contentsOf: buffer[start..<(start + n)])
                start += n
                state = n == remaining ? .chunkDataEnd : .chunkData(remaining - n)
            case .chunkDataEnd:
                guard buffer.count - start >= 2 else { return .needMore }
                guard buffer[start] == 13, buffer[start + 1] == 10 else { return .malformed }
                start += 2
                state = .chunkSize
            case .trailers:
                guard let lineEnd = find([13, 10]) else { return .needMore }
                let empty = lineEnd == start
                start = lineEnd + 2
                if empty { state = .done }
            }
        }
    }

    private mutating func parseHead(_ text: String) -> Bool {
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1" || statusLine[0] == "HTTP/1.0",
              statusLine[1].count == 3, let code = Int(statusLine[1]) else { return false }
        status = code
        headers = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return false }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].trimmingSpaces())))
        }
        func values(_ name: String) -> [String] {
            headers.filter { $0.0.lowercased() == name }.map { $0.1.lowercased() }
        }
        let connection = values("connection").flatMap { $0.split(separator: ",").map { $0.trimmingSpaces() } }
        keepAlive = statusLine[0] == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        if (100..<200).contains(code) { return true }
        state = .body
        if isHeadRequest || code == 204 || code == 304 {
            framing = .none
        } else if values("transfer-encoding").contains(where: { $0.contains("chunked") }) {
            framing = .chunked
        } else if let length = values("content-length").first {
            guard let n = Int(length), n >= 0, n <= maxBodyBytes else { return false }
            framing = .length(n)
        } else {
            framing = .untilClose
            keepAlive = false
        }
        return true
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count - start >= needle.count else { return nil }
        for i in start...(buffer.count - needle.count) where buffer[i] == needle[0] {
            if needle.count == 2 ? buffer[i + 1] == needle[1]
                : (buffer[i + 1] == needle[1] && buffer[i + 2] == needle[2] && buffer[i + 3] == needle[3]) {
                return i
            }
        }
        return nil
    }
}

private extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around a header value.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
