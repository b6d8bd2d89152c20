// fuzz-module-of: RequestParser.swift
// Fuzz target: the HTTP/1.1 request parser. The first input byte picks a piece size; the rest is
// a byte stream of requests. Besides not crashing, the parser must give the same requests (heads,
// joined bodies, error status) whether the stream arrives whole or in pieces: that is its contract,
// and a difference would be a request-smuggling or desync bug.

@_cdecl("fuzz_request_parser")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let pieceSize = Int(bytes[0] % 17) + 1
    let stream = Array(bytes.dropFirst())
    // Small limits, so the limit checks themselves are reached often.
    var limits = ServerLimits()
    limits.maxRequestLineBytes = 96
    limits.maxHeaderBytes = 256
    limits.maxHeaderCount = 8
    limits.defaultBodyLimit = 512

    let whole = FuzzRequestStream.parse([stream], limits: limits)
    var pieces: [[UInt8]] = []
    var index = 0
    while index < stream.count {
        pieces.append(Array(stream[index..<min(stream.count, index + pieceSize)]))
        index += pieceSize
    }
    let split = FuzzRequestStream.parse(pieces, limits: limits)
    fuzzCheck(whole == split, "pieces of \(pieceSize) bytes parse differently: \(whole) vs \(split)")
    return 0
}

enum FuzzRequestStream {
    enum Outcome: Equatable {
        case request(RequestHead, body: [UInt8])
        case error(Int)
    }

    static func parse(_ pieces: [[UInt8]], limits: ServerLimits) -> [Outcome] {
        var parser = RequestParser(limits: limits)
        var outcomes: [Outcome] = []
        var head: RequestHead?
        var body: [UInt8] = []
        for piece in pieces {
            parser.feed(piece)
            while true {
                switch parser.next() {
                case .needMore:
                    parser.releaseMemoryIfEmpty()
                    break
                case .head(let h):
                    fuzzCheck(head == nil, "a head before the previous request ended")
                    head = h
                    body = []
                    continue
                case .body(let b):
                    fuzzCheck(head != nil && !b.isEmpty, "a body piece outside a request, or an empty one")
                    body += b
                    fuzzCheck(body.count <= limits.defaultBodyLimit, "body beyond its limit")
                    continue
                case .end:
                    outcomes.append(.request(head!, body: body))
                    head = nil
                    continue
                case .error(let e):
                    fuzzCheck(parser.hasFailed && parser.next() == .error(e), "an error that does not stick")
                    outcomes.append(.error(e.status))
                    return outcomes
                }
                break
            }
        }
        return outcomes
    }
}
