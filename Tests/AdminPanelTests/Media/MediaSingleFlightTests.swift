import Foundation
import HTTPServer
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

actor Counter {
    private(set) var value = 0
    func add() { value += 1 }
}

/// Opens once; everyone waiting before or after goes on.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }
    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

@Suite(.awaitsTeardown) struct MediaSingleFlightTests {
    @Test func simultaneousMissesForOneImageFetchItOnce() async throws {
        let gate = Gate()
        let fetches = Counter()
        let images = try StubAPI { request in
            await fetches.add()
            await gate.wait()
            var response = HTTPResponse(status: request.path == "/bucket/a.png" ? 200 : 404,
                                        body: .data(request.path == "/bucket/a.png" ? TestImages.png(seed: 9) : Data()))
            response.headers["Content-Type"] = "image/png"
            return response
        }
        Teardown.add { await images.stop() }
        let harness = try await PanelHarness.start(.init(live: true, mediaOrigins: [images.url]))
        Teardown.add { await harness.stop() }

        let readers = 8
        let answers = try await withThrowingTaskGroup(of: RawResponse.self) { group in
            for _ in 0..<readers { group.addTask { try await harness.browser.get("/media/_o1/bucket/a.png") } }
            // Hold the upstream answer until every reader is waiting on the one fetch (or 10 s
            // passed: then single-flight is broken and the counts below say so).
            _ = await eventually(seconds: 10) { await harness.panel.app.mediaFetches.joined >= readers - 1 }
            await gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == readers)
        #expect(answers.allSatisfy { $0.status == 200 && $0.body == TestImages.png(seed: 9) })
        #expect(await fetches.value == 1)
        #expect(await harness.panel.app.mediaFetches.started == 1)

        // A failed fetch is shared too, but not kept: the next miss asks upstream again.
        let missing = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<3 { group.addTask { try await harness.browser.get("/media/_o1/bucket/none.png").status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(missing == [404, 404, 404])
        let before = await fetches.value
        #expect(try await harness.browser.get("/media/_o1/bucket/none.png").status == 404)
        #expect(await fetches.value == before + 1)
    }
}
