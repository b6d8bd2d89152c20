import Foundation

/// Strong validators for `ETag` and the `If-None-Match` check that answers 304.
public enum EntityTag {
    /// A strong tag from the bytes themselves (64-bit FNV-1a, a fast fingerprint, not a
    /// security hash): the same bytes always get the same tag.
    public static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\"" + String(hash, radix: 16) + "-" + String(data.count, radix: 16) + "\""
    }

    /// Whether an `If-None-Match` header (a list, `*`, or weak forms) names `etag`.
    public static func matches(ifNoneMatch header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
