import Foundation
import Testing
import TestSupport
import OpenMarketCore
import OpenMarketSandbox
@testable import AdminPanel
#if canImport(Glibc)
import Glibc
#endif

/// The API flaps, answers slowly, or answers garbage in the middle of a load on the real
/// `openmarket-admin`. Pages must say 502 or 504, forms must come back with the seller's input
/// (and staged images) kept, no request may hang, and afterwards pages are normal again and the
/// panel's memory and descriptors are back at their level.
@Suite(.awaitsTeardown) struct UpstreamFaultTests {
    /// The panel's upstream timeout (`--timeout`): short, so the slow fault costs little time, but
    /// well above what a healthy call takes on a busy machine (the sandbox fsyncs every write).
    static let upstreamTimeout: TimeInterval = 2
    /// No request may take longer: an edit makes two upstream calls, each bounded by the timeout,
    /// plus slack for a loaded two-core machine. A stuck handler breaks it (its client gives up
    /// a few seconds later and the exchange is recorded as failed).
    static let bound: Duration = .seconds(2 * upstreamTimeout + 3)
    static let clients = 6

    @Test func faultsInTheMiddleOfALoadGive502Or504KeepInputAndLeaveNothingBehind() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("upstream-faults-\(UUID().uuidString)")
        var sandboxConfiguration = SandboxConfiguration(dataDirectory: data.appendingPathComponent("api"))
        sandboxConfiguration.port = 0
        sandboxConfiguration.logRequests = false
        let sandbox = try Sandbox(configuration: sandboxConfiguration)
        _ = try sandbox.start()
        Teardown.add {
            await sandbox.shutdown()
            try? FileManager.default.removeItem(at: data)
        }
        let vendor = sandbox.demoVendor
        let api = OpenMarketClient(configuration: ClientConfiguration(baseURL: sandbox.baseURL, dialect: .v2a,
                                                                      identifier: vendor.identifier, secret: vendor.secret,
                                                                      timeout: 60),
                                   transport: PooledTransport(maxConnectionsPerHost: 4))
        let upstream = try FaultyUpstream(backendPort: sandbox.baseURL.port!, slowHold: 10 * Self.upstreamTimeout)
        // The stand-in passes the panel's Host on (image links name it), so the sandbox must answer to it.
        sandbox.allowHost("127.0.0.1:\(upstream.port)")
        Teardown.add { await upstream.stop() }

        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let panel = try await offPool {
            try ExecutableTests.start(data: data.appendingPathComponent("panel"),
                                      extra: ["--api", upstream.url.absoluteString, "--vendor-id", "\(vendor.id)",
                                              "--timeout", "\(Self.upstreamTimeout)"],
                                      environment: ["OPENMARKET_IDENTIFIER": vendor.identifier, "OPENMARKET_SECRET": vendor.secret],
                                      error: .file(data.appendingPathComponent("panel-stderr.log").path))
        }
        Teardown.add { panel.child.signal(SIGKILL) }

        var clients: [FaultLoad.Client] = []
        for index in 0..<Self.clients {
            let product = try await api.create(NewProduct(name: "Edited by \(index)", description: "A product made by a test.",
                                                          price: 12000, currency: .KRW, discountedPrice: 0, stock: 3,
                                                          images: [ImageUpload(filename: "p.png", data: TestImages.png(seed: UInt8(index)))]))
            clients.append(try await FaultLoad.Client(index: index, port: panel.port, productID: product.id,
                                                      timeout: Int(Self.bound.components.seconds) + 5))
        }
        let load = FaultLoad(upstream: upstream)
        let running = Task { await load.run(clients) }

        // Healthy warm-up: three rounds of every step per client, so the allocator's arenas and
        // the panel's caches have grown before memory is measured.
        try await load.waitUntil("warm-up") { $0.everyClientDidFullRounds(3, since: load.start) }
        let warm = try Self.usage(of: panel.child.pid)

        for fault in [FaultyUpstream.Mode.flapping, .slow, .garbage] {
            let began = load.switchTo(fault)
            // Every kind of step met the fault (each slow one costs a timeout); the cheap faults get
            // a few hundred requests, so a leak per failed request would show in memory.
            let (each, total) = fault == .slow ? (1, 0) : (2, 250)
            try await load.waitUntil("\(fault)") { $0.eachKindFinishedInside(each, after: began, total: total) }
            let healed = load.switchTo(.healthy)
            // Normal pages again: every client does a whole round, all of it 200 or 303.
            try await load.waitUntil("recovery after \(fault)") { $0.everyClientDidFullRounds(1, since: healed) }
        }
        // The same healthy load as the warm-up, then memory again.
        let recovered = load.switchTo(.healthy)
        try await load.waitUntil("the final healthy rounds") { $0.everyClientDidFullRounds(3, since: recovered) }
        let after = try Self.usage(of: panel.child.pid)
        load.stop()
        let finished = await running.value

        // Each fault was really met, and the panel's answers match what happened to each request.
        for fault in [FaultyUpstream.Mode.flapping, .slow, .garbage] {
            #expect(upstream.handledCount(fault) >= FaultLoad.Kind.allCases.count, "\(fault) met \(upstream.handledCount(fault)) times")
        }
        let problems = finished.exchanges.flatMap { exchange in
            load.problems(of: exchange).map { "client \(exchange.client) \(exchange.kind) [\(exchange.modes.map(\.rawValue).sorted().joined(separator: ", "))] → \(exchange.status): \($0)" }
        }
        #expect(problems.isEmpty, "\(problems.count) problems of \(finished.exchanges.count) exchanges:\n\(problems.prefix(20).joined(separator: "\n"))")
        let counts = Dictionary(grouping: finished.exchanges, by: \.status).mapValues(\.count)
        #expect(counts[502, default: 0] > 0 && counts[504, default: 0] > 0, "statuses: \(counts)")
        // Every image staged by a failed register was still there for the retry that succeeded.
        #expect(finished.clients.allSatisfy { $0.pendingStagedToken == nil }, "a staged batch was never registered")
        #expect(finished.clients.allSatisfy { $0.registeredAfterFault > 0 }, "no register with kept images after a fault")

        // Memory and descriptors are back at their level. RSS after the warm-up is the baseline;
        // after the faults and the same healthy load it may be at most 5 % or 3 MiB above it
        // (whichever is more). Measured: +0.4 to +0.6 MiB in five runs, with ~550 failed requests.
        // Some growth is real data: each register that succeeds adds a product to the panel's
        // catalog copy and its SQLite cache, each failed one keeps a staged batch for an hour; and
        // glibc keeps freed memory in per-thread arenas that vary with which threads ran what.
        // A leak of 6 KiB or more per failed request (a page, a response, a pooled connection's
        // buffers) exceeds it.
        let allowed = max(warm.rssKiB / 20, 3072)
        #expect(after.rssKiB <= warm.rssKiB + allowed,
                "RSS \(warm.rssKiB) KiB after the warm-up, \(after.rssKiB) KiB after faults and recovery (allowed +\(allowed))")
        // Descriptors: the pool holds at most one connection per client at a time, plus a few.
        #expect(after.descriptors <= warm.descriptors + 4, "descriptors \(warm.descriptors) → \(after.descriptors)")
        #expect(upstream.openConnections <= Self.clients + 2, "\(upstream.openConnections) connections to the API")
        let slowestHealthy = finished.exchanges.filter { $0.modes == [.healthy] }.map { $0.finished - $0.started }.max() ?? .zero
        print("upstream faults: \(finished.exchanges.count) exchanges \(counts.sorted { $0.key < $1.key }), slowest healthy \(slowestHealthy); "
              + "RSS \(warm.rssKiB) → \(after.rssKiB) KiB, fds \(warm.descriptors) → \(after.descriptors); "
              + "met: " + FaultyUpstream.Mode.allCases.map { "\($0) \(upstream.handledCount($0))" }.joined(separator: ", "))

        // No handler is left running: a graceful stop waits for requests in flight and exits 0.
        #expect(try await ExecutableTests.stop(panel.child) == 0)
    }

    /// VmRSS and open descriptors of a process.
    static func usage(of pid: Int32) throws -> (rssKiB: Int, descriptors: Int) {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kiB = try #require(Int(line.split(separator: " ")[1]))
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        return (kiB, descriptors)
    }
}

/// Several browsers going round list → detail → register (with an image) → edit form → edit,
/// each request recorded with the upstream modes it overlapped.
final class FaultLoad: @unchecked Sendable {
    enum Kind: String, CaseIterable, Sendable { case list, detail, register, editForm, edit }

    struct Exchange: Sendable {
        var client: Int
        var kind: Kind
        var started: ContinuousClock.Instant
        var finished: ContinuousClock.Instant
        var status: Int
        /// Modes of the upstream while it ran (filled in when the load ends).
        var modes: Set<FaultyUpstream.Mode> = []
        /// Checks of the answer that failed (input lost, wrong page, …).
        var failures: [String]
    }

    /// One browser and what it has typed so far.
    struct Client: Sendable {
        let index: Int
        let browser: TestBrowser
        let productID: Int
        var editFields: [(String, String)]
        var loadedName: String
        var csrfToken: String
        var pendingStagedToken: String?
        var registeredAfterFault = 0
        var counter = 0

        init(index: Int, port: Int, productID: Int, timeout: Int) async throws {
            self.index = index
            self.productID = productID
            browser = TestBrowser(port: port)
            browser.timeout = timeout
            let form = try await browser.get("/products/\(productID)/edit")
            guard form.status == 200, let token = form.inputValue("csrf_token"), let name = form.inputValue("name") else {
                throw TestClientFailure(description: "edit form: \(form.status)")
            }
            csrfToken = token
            loadedName = name
            editFields = EditRouteTests.editFields(from: form, overriding: [:])
        }
    }

    struct Finished: Sendable {
        var exchanges: [Exchange]
        var clients: [Client]
    }

    let upstream: FaultyUpstream
    let start = ContinuousClock.now
    private let lock = NSLock()
    private var exchanges: [Exchange] = []
    /// When each mode began and ended; `switchTo` records both sides of the change.
    private var periods: [(mode: FaultyUpstream.Mode, from: ContinuousClock.Instant, to: ContinuousClock.Instant?)]
    private var stopped = false

    init(upstream: FaultyUpstream) {
        self.upstream = upstream
        periods = [(.healthy, start, nil)]
    }

    /// Switches the upstream's mode; answers the instant after which every new request meets it.
    func switchTo(_ mode: FaultyUpstream.Mode) -> ContinuousClock.Instant {
        let before = ContinuousClock.now
        upstream.mode = mode
        let after = ContinuousClock.now
        lock.withLock {
            periods[periods.count - 1].to = after
            periods.append((mode, before, nil))
        }
        return after
    }

    func stop() { lock.withLock { stopped = true } }

    func run(_ clients: [Client]) async -> Finished {
        let done = await withTaskGroup(of: Client.self) { group in
            for client in clients { group.addTask { await self.drive(client) } }
            var done: [Client] = []
            for await client in group { done.append(client) }
            return done
        }
        return lock.withLock {
            let modes = periods
            let all = exchanges.map { exchange in
                var exchange = exchange
                exchange.modes = Set(modes.filter { $0.from <= exchange.finished && ($0.to ?? .now) >= exchange.started }.map(\.mode))
                return exchange
            }
            return Finished(exchanges: all, clients: done)
        }
    }

    private func drive(_ start: Client) async -> Client {
        var client = start
        var step = client.index
        while !lock.withLock({ stopped }) {
            let kind = Kind.allCases[step % Kind.allCases.count]
            step += 1
            let began = ContinuousClock.now
            var status = 0
            var failures: [String] = []
            do {
                (status, failures) = try await perform(kind, &client)
            } catch {
                failures = ["no answer: \(error)"]
            }
            let exchange = Exchange(client: client.index, kind: kind, started: began, finished: .now, status: status,
                                    failures: failures)
            lock.withLock { exchanges.append(exchange) }
        }
        return client
    }

    /// One step: the request, and the checks its answer must pass whatever its status.
    private func perform(_ kind: Kind, _ client: inout Client) async throws -> (Int, [String]) {
        client.counter += 1
        var failures: [String] = []
        func check(_ condition: Bool, _ what: String) { if !condition { failures.append(what) } }
        switch kind {
        case .list, .detail, .editForm:
            let path = kind == .list ? "/products" : kind == .detail ? "/products/\(client.productID)" : "/products/\(client.productID)/edit"
            let page = try await client.browser.get(path)
            switch page.status {
            case 200 where kind == .list: check(page.text.contains("data-view=\"list\""), "not the list")
            case 200 where kind == .detail: check(page.text.contains(client.loadedName), "not the product")
            case 200: check(page.inputValue("name") == client.loadedName, "form not prefilled")
            case 502, 504:
                check(page.text.contains(page.status == 504 ? "did not answer in time" : "Try again"), "not the failure page")
                check(page.header("Cache-Control") == "no-store", "failure page cached")
            default: break
            }
            return (page.status, failures)
        case .register:
            let name = "Fault \(client.index)-\(client.counter)"
            let price = "\(12000 + client.counter)"
            var fields = RegisterRouteTests.fields(client.csrfToken, name: name)
            fields = fields.map { $0.0 == "price" ? ("price", price) : $0 }
            var files: [TestBrowser.FilePart] = []
            if let token = client.pendingStagedToken {
                fields.append(("staged_token", token))
            } else {
                files.append(.init(filename: "kept.png", type: "image/png", data: TestImages.png(seed: UInt8(client.counter % 200))))
            }
            let answer = try await client.browser.postMultipart("/products", fields: fields, files: files)
            switch answer.status {
            case 303:
                check(answer.header("Location")?.hasPrefix("/products/") == true, "redirected elsewhere")
                if client.pendingStagedToken != nil { client.registeredAfterFault += 1 }
                client.pendingStagedToken = nil
            case 502, 504:
                check(answer.inputValue("name") == name && answer.inputValue("price") == price, "typed values lost")
                check(answer.text.contains("data-staged-images"), "staged image lost")
                check(answer.text.contains("role=\"alert\""), "no alert")
                // A slow API may have registered it anyway: submitting again blindly would duplicate it.
                check((answer.status == 504) == answer.text.contains("check the product list before you submit again"),
                      "wrong advice for a \(answer.status)")
                let token = answer.inputValue("staged_token")
                check(token?.isEmpty == false, "no staged token")
                if let pending = client.pendingStagedToken { check(token == pending, "another staged batch") }
                client.pendingStagedToken = token ?? client.pendingStagedToken
            default: break
            }
            return (answer.status, failures)
        case .edit:
            let name = "Edited \(client.index)-\(client.counter)"
            let fields = client.editFields.map { $0.0 == "name" ? ("name", name) : $0 }
            let answer = try await client.browser.post("/products/\(client.productID)/edit", form: fields)
            switch answer.status {
            case 303:
                // Saved: the product now is what this browser last opened, with the new name.
                client.loadedName = name
                client.editFields = fields.map { $0.0 == "loaded_name" ? ("loaded_name", name) : $0 }
            case 502, 504:
                check(answer.inputValue("name") == name, "typed name lost")
                check(answer.inputValue("loaded_name") == client.loadedName, "opened values lost")
                check(answer.text.contains("role=\"alert\""), "no alert")
            default: break
            }
            return (answer.status, failures)
        }
    }

    /// What is wrong with an exchange: a status none of the modes it met explain, a failed check,
    /// or a duration past the bound.
    func problems(of exchange: Exchange) -> [String] {
        var problems = exchange.failures
        let allowed = Set(exchange.modes.map { mode -> Int in
            switch mode {
            case .healthy: exchange.kind == .register || exchange.kind == .edit ? 303 : 200
            case .flapping, .garbage: 502
            case .slow: 504
            }
        })
        if !allowed.contains(exchange.status) { problems.append("expected \(allowed.sorted())") }
        let took = exchange.finished - exchange.started
        if took > UpstreamFaultTests.bound { problems.append("took \(took)") }
        return problems
    }

    // MARK: Waiting for the load

    /// `eventually` (up to 60 s) `condition` holds for the exchanges so far.
    func waitUntil(_ what: String, _ condition: (Progress) -> Bool) async throws {
        guard await eventually(seconds: 60, { condition(Progress(exchanges: lock.withLock { exchanges })) }) else {
            throw TestClientFailure(description: "timed out waiting for \(what)")
        }
    }

    struct Progress {
        var exchanges: [Exchange]

        /// Every client finished `rounds` × every step, all started after `instant`.
        func everyClientDidFullRounds(_ rounds: Int, since instant: ContinuousClock.Instant) -> Bool {
            let counts = Dictionary(grouping: exchanges.filter { $0.started >= instant }, by: \.client).mapValues(\.count)
            return (0..<UpstreamFaultTests.clients).allSatisfy { counts[$0, default: 0] >= rounds * Kind.allCases.count }
        }

        /// Each kind of step started and finished `count` times after `instant`, and `total` steps in all.
        func eachKindFinishedInside(_ count: Int, after instant: ContinuousClock.Instant, total: Int) -> Bool {
            let inside = exchanges.filter { $0.started >= instant }
            let byKind = Dictionary(grouping: inside, by: \.kind).mapValues(\.count)
            return inside.count >= total && Kind.allCases.allSatisfy { byKind[$0, default: 0] >= count }
        }
    }
}
