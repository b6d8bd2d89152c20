import Foundation
import HTTPServer

/// `GET /events`: the live stream of product changes (and, with `?product={id}`, who else has
/// that product open) for anyone who may see the catalog.
///
/// Handler: `LiveEvents.swift`. `PanelControllers` builds it with the dependencies below.
struct LiveController: Sendable {
    let live: LiveStreams
    let sessions: SessionStore
    let people: PeopleStore

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/events", .viewer, plain: \.controllers.liveController) { await $0.events($1, $2) }
    }
}
