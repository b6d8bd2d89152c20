// fuzz-module-of: V1ListPage.swift
// Fuzz target: the v1 (2021) dialect's readers of the list page and the item detail.
import Foundation

@_cdecl("fuzz_v1_json")
public func fuzzV1JSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    _ = try? OpenMarketJSON.decodeV1ListPage(bytes)
    _ = try? OpenMarketJSON.decodeV1Detail(bytes)
    return 0
}
