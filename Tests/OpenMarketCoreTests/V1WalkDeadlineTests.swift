import Foundation
import Testing
@testable import OpenMarketCore

/// A v1 list walks every page; an API that answers a full page every time, slowly, must not
/// keep the caller waiting one timeout per page: the walk as a whole gets the timeout.
@Suite struct V1WalkDeadlineTests {
    /// Answers every page with 20 items after `delay`, or fails when the request's own timeout is shorter.
    actor EndlessPages: HTTPTransport {
        let delay: TimeInterval
        private(set) var timeouts: [TimeInterval] = []
        init(delay: TimeInterval) { self.delay = delay }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            timeouts.append(request.timeout)
            if request.timeout < delay {
                try await Task.sleep(for: .milliseconds(WholeNumber.milliseconds(request.timeout)))
                throw TransportError.timeout
            }
            try await Task.sleep(for: .milliseconds(WholeNumber.milliseconds(delay)))
            let items = (1...20).map { id in
                #"{"id":\#(id),"title":"t","price":1,"currency":"KRW","stock":1,"thumbnails":[],"registration_date":1611523563.7}"#
            }
            return TransportResponse(status: 200, body: Data(#"{"page":1,"items":[\#(items.joined(separator: ","))]}"#.utf8))
        }
    }

    @Test func theWholeWalkGetsOneTimeout() async throws {
        let transport = EndlessPages(delay: 0.15)
        let client = OpenMarketClient(configuration: ClientConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!, dialect: .v1,
                                                                         identifier: "", secret: "", timeout: 1),
                                      transport: transport)
        await #expect(throws: OpenMarketError.timeout) { _ = try await client.listProducts(page: 1, itemsPerPage: 20) }
        // Without the shared deadline the walk asks all 500 pages, each with the full timeout. (No
        // bound on the elapsed time here: on a loaded machine every sleep runs late.)
        let timeouts = await transport.timeouts
        #expect(!timeouts.isEmpty && timeouts.count < 20, "\(timeouts.count) pages asked")
        #expect(timeouts.allSatisfy { $0 <= 1 })
        #expect(zip(timeouts, timeouts.dropFirst()).allSatisfy { $0 > $1 }, "each page gets what is left: \(timeouts)")
    }
}
