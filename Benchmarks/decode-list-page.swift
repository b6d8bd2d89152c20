// Benchmark entry point for scripts/bench-decode: compiled into the OpenMarketCore module itself
// (its internal readers visible), optimised, no test framework in the way.
import Foundation

/// One list answer of `count` products in the v2a (snake_case) or v2b (camelCase) spelling,
/// shaped like the sandbox's answers (Korean names, absolute thumbnail URLs, dated fractions).
func listAnswer(count: Int, camel: Bool) -> Data {
    func key(_ snake: String, _ camelKey: String) -> String { camel ? camelKey : snake }
    var items: [String] = []
    for i in 0..<count {
        let id = 10_000 - i
        var fields = [
            "\"id\":\(id)", "\"\(key("vendor_id", "vendorId"))\":\(i % 7 + 1)",
            "\"name\":\"무선 키보드 \(id)호 블루투스\"",
            "\"thumbnail\":\"https://openmarket.example.com/media/\(i % 7 + 1)/thumb/\(UUID().uuidString.lowercased()).jpg\"",
            "\"currency\":\"\(i % 5 == 0 ? "USD" : "KRW")\"", "\"price\":\(12_000 + i * 100).0",
            "\"\(key("bargain_price", "bargainPrice"))\":\(11_000 + i * 100).0",
            "\"\(key("discounted_price", "discountedPrice"))\":1000.0", "\"stock\":\(i * 3 % 50)",
            "\"\(key("created_at", "createdAt"))\":\"2022-0\(i % 9 + 1)-1\(i % 10)T00:00:00\(camel ? "" : ".00")\"",
            "\"\(key("issued_at", "issuedAt"))\":\"2022-0\(i % 9 + 1)-1\(i % 10)T00:00:00\(camel ? "" : ".00")\"",
        ]
        if camel { fields += ["\"vendorName\":\"판매자\(i % 7 + 1)\"", "\"description\":\"튼튼하고 가벼운 키보드입니다.\""] }
        items.append("{" + fields.joined(separator: ",") + "}")
    }
    let page = camel
        ? "\"pageNo\":1,\"itemsPerPage\":\(count),\"totalCount\":10000,\"offset\":0,\"limit\":\(count),\"lastPage\":\(10_000 / count),\"hasNext\":true,\"hasPrev\":false"
        : "\"page_no\":1,\"items_per_page\":\(count),\"total_count\":10000,\"offset\":0,\"limit\":\(count),\"last_page\":\(10_000 / count),\"has_next\":true,\"has_prev\":false"
    return Data(("{" + page + ",\"pages\":[" + items.joined(separator: ",") + "]}").utf8)
}

func cpuNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

@main
struct DecodeListPageBenchmark {
    static func main() throws {
        let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 2_000 : 2_000
        for camel in [false, true] {
            let data = listAnswer(count: 100, camel: camel)
            let page = try OpenMarketJSON.decodeListPage(data)
            precondition(page.pages.count == 100 && page.unreadable.isEmpty, "the answer must decode whole")
            var checksum = 0
            let start = cpuNanoseconds()
            for _ in 0..<iterations { checksum &+= try OpenMarketJSON.decodeListPage(data).pages.count }
            let perDecode = Double(cpuNanoseconds() - start) / Double(iterations)
            print("\(camel ? "v2b" : "v2a") 100-product page (\(data.count) bytes): "
                  + String(format: "%.1f µs CPU per decode", perDecode / 1_000) + " (\(iterations) runs, check \(checksum))")
        }
    }
}
