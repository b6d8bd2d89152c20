// fuzz-module-of: ResponseParser.swift
// Fuzz target: the HTTP client's response parser. The first byte picks a piece size and whether
// the request was HEAD; the rest is what the server sent, then the connection closes. The outcome
// must not depend on how the bytes were split.
import Foundation

@_cdecl("fuzz_response_parser")
public func fuzzResponseParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let control = data[0]
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let isHead = control & 0x80 != 0
    let pieceSize = Int(control & 0x1F) + 1
    let whole = FuzzResponse.parse([stream], isHead: isHead)
    var pieces: [[UInt8]] = []
    var index = 0
    while index < stream.count {
        pieces.append(Array(stream[index..<min(stream.count, index + pieceSize)]))
        index += pieceSize
    }
    let split = FuzzResponse.parse(pieces, isHead: isHead)
    fuzzCheck(whole == split, "pieces of \(pieceSize) bytes parse differently: \(whole) vs \(split)")
    return 0
}

enum FuzzResponse {
    static func parse(_ pieces: [[UInt8]], isHead: Bool) -> String {
        // Small limits, so the limit checks themselves are reached often.
        var limits = ResponseParser.Limits()
        limits.maxHeaderBytes = 512
        limits.maxHeaderCount = 8
        limits.maxChunkLineBytes = 64
        limits.maxBodyBytes = 4096
        var parser = ResponseParser(isHeadRequest: isHead, limits: limits)
        func describe(_ outcome: ResponseParser.Outcome) -> String? {
            switch outcome {
            case .needMore: return nil
            case .malformed: return "malformed"   // the reason may name where it noticed; the verdict must agree
            case .complete(let r):
                fuzzCheck(r.body.count <= 4096, "a body beyond its limit")
                // `reusable` is left out: bytes after the response make it false, and whether they
                // arrived before the response was complete is exactly what splitting changes.
                return "\(r.status) \(r.headers.map { "\($0.0)=\($0.1)" }) \(Array(r.body))"
            }
        }
        for piece in pieces {
            piece.withUnsafeBytes { parser.feed($0) }
            if let outcome = describe(parser.parse()) { return outcome }
        }
        return describe(parser.finishAtEOF()) ?? "incomplete"
    }
}
