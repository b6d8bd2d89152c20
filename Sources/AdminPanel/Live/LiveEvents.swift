import Foundation
import HTTPServer

extension LiveController {
    /// The event stream: replays what a reconnecting page missed, then every product event as
    /// it happens. It lives on the server's event loop until the page closes, the session
    /// ends (checked every second), or the panel stops (`event: bye`).
    func events(_ request: HTTPRequest, _ context: PanelContext) async -> HTTPResponse {
        let productID = request.query["product"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        // `Last-Event-ID` as the browser sends it on a reconnect; a page may pass it in the query
        // too (a fresh EventSource after a page load cannot set the header).
        let lastEventID = request.headers["Last-Event-ID"] ?? request.query["last_event_id"]
        var headers = HTTPHeaders(.contentType, "text/event-stream; charset=utf-8")
        headers["Cache-Control"] = "no-store"
        let person = context.person, sessionHash = context.sessionHash
        let lastSeen = lastEventID.map { String($0.prefix(32)) }
        return .stream(headers: headers, farewell: LiveStreams.farewell) { [live] writer in
            live.open(LiveStreams.Subscriber(writer: writer, person: person, sessionHash: sessionHash, productID: productID),
                      lastEventID: lastSeen)
        }
    }

    /// Ends the streams of sessions that ended (sign-out, revoked, person disabled) and keeps
    /// the others alive; `AdminPanel` runs it every second.
    func tick() async {
        await live.tick { [sessions, people] hash in
            guard let record = await sessions.record(hash: hash),
                  let person = await people.person(named: record.person) else { return false }
            return person.isActive
        }
    }
}
