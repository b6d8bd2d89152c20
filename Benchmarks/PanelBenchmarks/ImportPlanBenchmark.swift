import Foundation
import Testing
@testable import AdminPanel

/// A spreadsheet import of 1,000 rows: decoded, read and planned.
@Suite struct ImportPlanBenchmark {
    @Test func aThousandRows() throws {
        var csv = "name,description,price,currency,stock,images\n"
        for index in 0..<1_000 { csv += "Product \(index),\"A description, long enough\",\"12,\(String(format: "%03d", index % 1000))\",KRW,\(index),a.jpg\n" }
        let start = ContinuousClock.now
        let text = try CSVTextDecoder.decode(Data(csv.utf8)).text
        let records = try CSVReader().read(text)
        let planner = ImportPlanner(ownVendorID: 1, products: [:], uploads: ["a.jpg": nil])
        let plan = planner.plan(header: records[0].cells, records: Array(records.dropFirst()))
        let elapsed = ContinuousClock.now - start
        #expect(plan.rows.count == 1_000)
        print("decode, read and plan 1,000 import rows in \(elapsed)")
    }
}
