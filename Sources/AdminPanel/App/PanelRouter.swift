import HTTPServer

/// How controllers declare their routes (`CatalogController.register(on:)`): pattern, access,
/// body limit, and the controller answering, reached through the panel in the request's context
/// (`controller`, a key path of `PanelApp`).
extension Router where Context == PanelContext {
    /// A handler of a controller: the controller, the request and its context.
    typealias ControllerHandler<Controller> = @Sendable (Controller, HTTPRequest, PanelContext) async throws -> HTTPResponse

    mutating func get(_ pattern: String, _ access: RouteAccess, plain handler: @escaping RouteHandler<PanelContext>) {
        add("GET", pattern, options: PanelRouteOptions(access: access, bodyLimit: .serverDefault, kind: .plain), handler)
    }

    mutating func get<Controller>(_ pattern: String, _ access: RouteAccess, page controller: KeyPath<PanelApp, Controller> & Sendable,
                                  _ handler: @escaping ControllerHandler<Controller>) {
        add("GET", pattern, options: PanelRouteOptions(access: access, bodyLimit: .serverDefault, kind: .page),
            Self.page(controller, handler))
    }

    mutating func get<Controller>(_ pattern: String, _ access: RouteAccess, plain controller: KeyPath<PanelApp, Controller> & Sendable,
                                  _ handler: @escaping ControllerHandler<Controller>) {
        add("GET", pattern, options: PanelRouteOptions(access: access, bodyLimit: .serverDefault, kind: .plain)) { request, context in
            try await handler(context.answeringPanel()[keyPath: controller], request, context)
        }
    }

    mutating func get<Controller>(_ pattern: String, open controller: KeyPath<PanelApp, Controller> & Sendable,
                                  _ handler: @escaping @Sendable (Controller, HTTPRequest) async throws -> HTTPResponse) {
        add("GET", pattern, options: PanelRouteOptions(access: .anyone, bodyLimit: .serverDefault, kind: .open)) { request, context in
            try await handler(context.answeringPanel()[keyPath: controller], request)
        }
    }

    mutating func post<Controller>(_ pattern: String, _ access: RouteAccess, bodyLimit: RouteBodyLimit,
                                   page controller: KeyPath<PanelApp, Controller> & Sendable, _ handler: @escaping ControllerHandler<Controller>) {
        add("POST", pattern, options: PanelRouteOptions(access: access, bodyLimit: bodyLimit, kind: .page),
            Self.page(controller, handler))
    }

    /// A page handler: its failures become error pages (`Pages.respond`).
    private static func page<Controller>(_ controller: KeyPath<PanelApp, Controller> & Sendable,
                                         _ handler: @escaping ControllerHandler<Controller>) -> RouteHandler<PanelContext> {
        { request, context in
            let panel = try context.answeringPanel()
            return await panel.pages.respond(request, context) { request, context in
                try await handler(panel[keyPath: controller], request, context)
            }
        }
    }
}
