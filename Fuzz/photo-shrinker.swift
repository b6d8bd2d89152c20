// fuzz-module-of: ImageShrinker.swift
// fuzz-flags: -rss_limit_mb=256 -timeout=1 -max_len=16384
// fuzz-asan-options: quarantine_size_mb=16
// Fuzz target: the photo shrinker on any bytes: the JPEG and PNG decoders (DCT scaling, rows,
// passes, CMYK, truncation), the area averaging and the encoders. The first byte picks the byte
// limit: even, the API's 300 KB, so the photo is only decoded to the end to check it; odd, a few
// KB, so it is decoded to its first size and encoded again until it fits. Never a trap; within
// one second and 256 MiB; a photo that comes back is within its limit. (Raw bytes, not an HTTP
// answer: the client's body reader has its own target, body-reader.)
import Foundation
import OpenMarketCore

@_cdecl("fuzz_photo_shrinker")
public func fuzzPhotoShrinker(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 1 else { return 0 }
    let control = Int(data[0])
    let bytes = Data(bytes: data + 1, count: size - 1)
    let maxBytes = control % 2 == 0 ? ProductRules.maxImageBytes : 512 + (control / 2) * 64
    if let result = try? ImageShrinker.fit(bytes, filename: "fuzz.png", maxBytes: maxBytes) {
        fuzzCheck(result.data.count <= maxBytes, "\(result.data.count) bytes came back for a limit of \(maxBytes)")
        if result.data != bytes {
            fuzzCheck(ImageFormat.detect(result.data) == .jpeg || ImageFormat.detect(result.data) == .png, "not a JPEG or PNG came back")
        }
    }
    return 0
}
