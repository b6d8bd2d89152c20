// fuzz-module-of: HTTPBodyReader.swift
// Fuzz target: the HTTP/1.1 body framings that the server's request parser and the client's
// response parser share. The first byte picks the framing and a piece size; the rest is the body
// as it arrives, then the peer closes. The verdict and the bytes delivered must not depend on how
// the input was split, and no body may pass its limit.
import Foundation

@_cdecl("fuzz_body_reader")
public func fuzzBodyReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 1 else { return 0 }
    let control = data[0]
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let framing: HTTPBodyReader.Framing
    switch control & 0x03 {
    case 0: framing = .chunked
    case 1: framing = .untilClose
    default: framing = .length(Int(control >> 2) * 9)
    }
    let pieceSize = Int(control >> 3) + 1
    let whole = FuzzBody.read([stream], framing: framing)
    var pieces: [[UInt8]] = []
    var index = 0
    while index < stream.count {
        pieces.append(Array(stream[index..<min(stream.count, index + pieceSize)]))
        index += pieceSize
    }
    let split = FuzzBody.read(pieces, framing: framing)
    fuzzCheck(whole == split, "pieces of \(pieceSize) bytes read differently: \(whole) vs \(split)")
    return 0
}

enum FuzzBody {
    struct Outcome: Equatable {
        var body: [UInt8] = []
        var verdict = "needMore"
    }

    /// Reads the pieces the way both parsers do: append, compact now and then, ask for steps.
    static func read(_ pieces: [[UInt8]], framing: HTTPBodyReader.Framing) -> Outcome {
        // Small limits, so the limit checks themselves are reached often.
        var reader = HTTPBodyReader(framing: framing, maxBodyBytes: 600, maxChunkLineBytes: 16, maxTrailerBytes: 64)
        var buffer: [UInt8] = []
        var start = 0
        var outcome = Outcome()
        for piece in pieces {
            if start > 0, start == buffer.count || start > 32 {
                buffer.removeFirst(start)
                start = 0
            }
            buffer.append(contentsOf: piece)
            reading: while true {
                switch reader.next(in: buffer, start: &start) {
                case .data(let range):
                    fuzzCheck(!range.isEmpty && range.upperBound <= buffer.count, "an empty or outside range")
                    outcome.body.append(contentsOf: buffer[range])
                    fuzzCheck(outcome.body.count <= 600 || framing == .untilClose, "a body beyond its limit")
                case .needMore:
                    break reading
                case .end:
                    outcome.verdict = "end"
                    return outcome
                case .failed(let failure):
                    outcome.verdict = "failed \(failure)"
                    // Up to the limit plus what arrived with the piece that crossed it, for a body
                    // read until close; the bytes delivered before a failure depend on the split.
                    outcome.body = []
                    return outcome
                }
            }
        }
        return outcome
    }
}
