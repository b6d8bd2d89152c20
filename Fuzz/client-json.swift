// fuzz-module-of: JSONObjectReader.swift
// Fuzz target: the client core's JSON reader: the byte parser, and the list page and product detail
// readers on top of it, as the panel runs them on every API answer; and the date parser.
import Foundation

@_cdecl("fuzz_client_json")
public func fuzzClientJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    _ = try? JSONValue.parse(bytes)
    _ = try? OpenMarketJSON.decodeListPage(bytes)
    _ = try? OpenMarketJSON.decodeDetail(bytes)
    _ = OpenMarketJSON.parseDate(String(decoding: bytes, as: UTF8.self))
    return 0
}
