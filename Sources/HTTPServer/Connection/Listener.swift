import CEpoll
import Foundation

/// Accepts connections and deals them out to the event loops.
///
/// When the connection limit is reached it stops watching the listening socket, so new clients
/// wait in the kernel backlog; when `accept` fails for lack of descriptors or memory (EMFILE,
/// ENFILE, ENOBUFS, ENOMEM) it backs off briefly and tries again instead of giving up.
final class Listener: EventLoopClient, @unchecked Sendable {
    private let fd: Int32
    private let loop: EventLoop
    private let loops: [ServerLoop]
    private let context: ServerContext
    private var nextLoop = 0
    private var watching = true
    private var closed = false
    private var retryAt: UInt64 = 0
    private static let backOff: UInt64 = 100_000_000

    init(fd: Int32, loop: EventLoop, loops: [ServerLoop], context: ServerContext) {
        self.fd = fd
        self.loop = loop
        self.loops = loops
        self.context = context
    }

    func start() {
        loop.register(fd, self, readable: true, writable: false)
    }

    func handleEvent(readable: Bool, writable: Bool, hangUp: Bool) {
        guard readable else { return }
        acceptPending()
    }

    func tick(now: UInt64) {
        if !closed && !watching && retryAt != 0 && now >= retryAt {
            retryAt = 0
            resume()
        }
    }

    /// Watches the listening socket again (after a connection closed, or after a back-off).
    func resume() {
        guard !closed, !watching, retryAt == 0 else { return }
        watching = true
        loop.modify(fd, readable: true, writable: false)
        acceptPending()
    }

    private func pause(retryAfter delay: UInt64?) {
        if watching {
            watching = false
            loop.modify(fd, readable: false, writable: false)
        }
        retryAt = delay.map { monotonicNanos() + $0 } ?? 0
    }

    private func acceptPending() {
        for _ in 0..<128 {
            guard !closed else { return }
            guard context.admit() else {
                pause(retryAfter: nil)
                return
            }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                }
            }
            if client < 0 {
                let error = errno
                context.withdrawAdmission()
                switch error {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EAGAIN, EWOULDBLOCK: return
                default: pause(retryAfter: Self.backOff); return   // EMFILE, ENFILE, ENOBUFS, ENOMEM…
                }
            }
            Socket.setNoDelay(client)
            let remote = Socket.describe(address)
            let target = loops[nextLoop % loops.count]
            nextLoop &+= 1
            let context = self.context
            if target.loop === loop {
                Self.startConnection(fd: client, loop: target, context: context, remoteAddress: remote)
            } else {
                target.loop.execute {
                    Self.startConnection(fd: client, loop: target, context: context, remoteAddress: remote)
                }
            }
        }
    }

    /// Wraps the socket in its transport and starts serving it (on `loop`'s thread).
    private static func startConnection(fd: Int32, loop: ServerLoop, context: ServerContext, remoteAddress: String) {
        let transport: any ConnectionTransport
        do {
            transport = try context.makeTransport(fd)
        } catch {
            Glibc.close(fd)
            context.release()
            return
        }
        Connection(fd: fd, transport: transport, loop: loop, context: context, remoteAddress: remoteAddress).start()
    }

    /// Stops accepting and closes the listening socket.
    func close() {
        guard !closed else { return }
        closed = true
        loop.unregister(fd)
        Glibc.close(fd)
    }
}
