// fuzz-module-of: MultipartParser.swift
// Fuzz target: the streaming multipart/form-data parser. The first byte picks a piece size; the
// rest is a body with boundary "XyZ". The part events must be the same whether the body arrives
// whole or in pieces, and no piece of data may appear outside a part.

@_cdecl("fuzz_multipart_form")
public func fuzzMultipartForm(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let pieceSize = Int(bytes[0] % 23) + 1
    let body = Array(bytes.dropFirst())
    let whole = FuzzMultipart.parse([body])
    var pieces: [[UInt8]] = []
    var index = 0
    while index < body.count {
        pieces.append(Array(body[index..<min(body.count, index + pieceSize)]))
        index += pieceSize
    }
    let split = FuzzMultipart.parse(pieces)
    fuzzCheck(whole == split, "pieces of \(pieceSize) bytes parse differently: \(whole) vs \(split)")
    return 0
}

enum FuzzMultipart {
    enum Outcome: Equatable {
        case part(MultipartParser.PartHeaders, data: [UInt8])
        case end
        case error(Int)
    }

    static func parse(_ pieces: [[UInt8]]) -> [Outcome] {
        var parser = MultipartParser(boundary: "XyZ", maxHeaderBytes: 128)
        var outcomes: [Outcome] = []
        var current: MultipartParser.PartHeaders?
        var bytes: [UInt8] = []
        for piece in pieces {
            parser.feed(piece)
            while true {
                switch parser.next() {
                case .needMore:
                    break
                case .partHeaders(let headers):
                    fuzzCheck(current == nil, "part headers inside a part")
                    current = headers
                    bytes = []
                    continue
                case .data(let data):
                    fuzzCheck(current != nil, "data outside a part")
                    bytes += data
                    continue
                case .partEnd:
                    outcomes.append(.part(current!, data: bytes))
                    current = nil
                    continue
                case .end:
                    fuzzCheck(parser.isFinished, "an end before the final boundary")
                    if outcomes.last != .end { outcomes.append(.end) }
                    break
                case .error(let e):
                    outcomes.append(.error(e.status))
                    return outcomes
                }
                break
            }
        }
        return outcomes
    }
}
