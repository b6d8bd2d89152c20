import Testing
@testable import HTTPServer

/// The connection's keep-alive and drain decisions, without sockets.
@Suite struct KeepAlivePolicyTests {
    private func after(decided: AfterResponse = .keepAlive, clientKeepAlive: Bool = true, draining: Bool = false,
                       inputEnded: Bool = false, buffered: Int = 0, connection: String? = nil,
                       byClose: Bool = false) -> AfterResponse {
        KeepAlivePolicy.afterResponse(decided: decided, clientKeepAlive: clientKeepAlive, serverDraining: draining,
                                      inputEnded: inputEnded, bufferedBytes: buffered, responseConnection: connection,
                                      delimitedByClose: byClose)
    }

    @Test func keepsAliveOnlyWhenNothingSaysOtherwise() {
        #expect(after() == .keepAlive)
        #expect(after(clientKeepAlive: false) == .close)
        #expect(after(draining: true) == .close)
        #expect(after(connection: "Close") == .close)
        #expect(after(connection: "keep-alive") == .keepAlive)
        #expect(after(byClose: true) == .close)
    }

    @Test func aHalfClosedClientIsServedItsPipelinedRequestsFirst() {
        #expect(after(inputEnded: true, buffered: 0) == .close)
        #expect(after(inputEnded: true, buffered: 40) == .keepAlive)
    }

    @Test func anEarlierDecisionIsNeverSoftened() {
        #expect(after(decided: .close) == .close)
        #expect(after(decided: .linger, connection: "keep-alive") == .linger)
        #expect(AfterResponse.keepAlive < .close && AfterResponse.close < .linger)
    }

    @Test func onlyASmallBodyOfKnownSizeIsDrained() {
        #expect(KeepAlivePolicy.unreadBody(framing: .length(100), maxDrainBytes: 100) == .keepAlive)
        #expect(KeepAlivePolicy.unreadBody(framing: .length(101), maxDrainBytes: 100) == .close)
        #expect(KeepAlivePolicy.unreadBody(framing: .chunked, maxDrainBytes: 100) == .close)
    }

    @Test func closesAtOnceOnlyWhenNothingIsInFlight() {
        #expect(KeepAlivePolicy.closing(.close, bodyComplete: true, unreadBytes: 0, parserFailed: false) == .closeNow)
        #expect(KeepAlivePolicy.closing(.close, bodyComplete: false, unreadBytes: 0, parserFailed: false) == .linger)
        #expect(KeepAlivePolicy.closing(.close, bodyComplete: true, unreadBytes: 3, parserFailed: false) == .linger)
        #expect(KeepAlivePolicy.closing(.close, bodyComplete: true, unreadBytes: 0, parserFailed: true) == .linger)
        #expect(KeepAlivePolicy.closing(.linger, bodyComplete: true, unreadBytes: 0, parserFailed: false) == .linger)
    }
}
