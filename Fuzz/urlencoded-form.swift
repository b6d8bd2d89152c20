// fuzz-module-of: URLEncodedForm.swift
// Fuzz target: the application/x-www-form-urlencoded decoder and the header parameter parser
// (Content-Type / Content-Disposition) it shares with multipart.
import Foundation

@_cdecl("fuzz_urlencoded_form")
public func fuzzURLEncodedForm(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let limits = FormLimits(maxFields: 16, maxFieldBytes: 64)
    if let fields = try? URLEncodedForm.decode(bytes, limits: limits) {
        fuzzCheck(fields.items.count <= limits.maxFields, "more fields than the limit")
        fuzzCheck(fields.items.allSatisfy { $0.name.utf8.count <= 64 && $0.value.utf8.count <= 64 },
                     "a field beyond its limit")
    }
    _ = MediaType(String(decoding: bytes, as: UTF8.self))
    return 0
}
