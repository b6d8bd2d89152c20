/// What a running panel does besides answering requests: scheduled discounts, the live streams'
/// ticker and the periodic purges; and, at the stop, what follows the listener's stop. Kept apart
/// from the listener so a panel driven without one (the in-process test tier) runs the same.
final class PanelChores: Sendable {
    private let app: PanelApp
    private let sweeper = Sweeper()
    /// The live streams' chore: session checks, keep-alives.
    private let liveTicker = Sweeper()

    init(app: PanelApp) {
        self.app = app
    }

    func start() {
        let app = app
        // Scheduled discounts: v2 only (v1 would need stored product passwords).
        if app.controllers.saleSections.salesAvailable { Task { [scheduler = app.saleScheduler] in await scheduler.start() } }
        // Staged uploads of abandoned forms expire even if nobody submits again.
        let staging = app.uploads.staging
        let activity = app.stores.activity, days = app.configuration.activityDays, sessions = app.stores.sessions
        let imports = app.stores.imports, now = app.configuration.now
        Task { [liveTicker, live = app.controllers.liveController] in await liveTicker.run(every: .seconds(1)) { await live.tick() } }
        Task { await activity.purge(olderThanDays: days) }
        Task { await app.controllers.trashKeeper.sweepTrash() }
        Task { [sweeper] in
            await sweeper.run(every: .seconds(300)) {
                await staging.purgeExpired()
                await activity.purge(olderThanDays: days)
                await sessions.purgeExpired()
                await app.controllers.trashKeeper.sweepTrash()
                await imports.purge(now: now())
            }
        }
    }

    /// Once nothing answers any more: lets the chores and the catalog copy's sync finish what
    /// they started, removes staged uploads, and closes `panel.sqlite` after its queued writes.
    func stop() async {
        await liveTicker.stop()
        await sweeper.stop()
        await app.saleScheduler.stop()
        await app.upstream.catalog.stop()
        await app.uploads.staging.removeAll()
        app.uploads.scratch.remove()
        await app.stores.database.database.close()
    }
}
