import Foundation
import HTTPServer
import OpenMarketCore
@testable import AdminPanel

/// What a harness's panel offers tests, on either tier.
protocol RunningPanel: Sendable {
    var app: PanelApp { get }
    var setupPath: String? { get }
    func shutdown() async
}

extension AdminPanel: RunningPanel {}

/// The panel of the in-process tier: the same `PanelApp` and chores as a started `AdminPanel`,
/// its router called directly by `TestBrowser` instead of through a listener.
final class InProcessPanel: RunningPanel {
    /// The port requests name in `Host` and `Origin`. Nothing listens there (a privileged port
    /// no service uses), so a request that reached for a socket by mistake fails at once.
    static let port = 1

    let app: PanelApp
    let router: Router<PanelContext>
    private let chores: PanelChores

    init(configuration: PanelConfiguration, transport: any HTTPTransport) throws {
        app = try PanelApp(configuration: configuration, transport: transport)
        // The one place the in-process tier takes the panel's router from.
        router = app.routes()
        app.listeningPort.value = Self.port
        chores = PanelChores(app: app)
        chores.start()
    }

    var setupPath: String? { app.setupToken.map { "/setup/" + $0 } }

    /// As `AdminPanel.shutdown`, with no listener to stop first.
    func shutdown() async { await chores.stop() }
}
