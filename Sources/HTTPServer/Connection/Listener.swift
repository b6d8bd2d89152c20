import CEpoll
import Foundation

/// Accepts connections and deals them out to the event loops.
///
/// When the connection limit is reached it asks the loops to close their longest-idle
/// connections and stops watching the listening socket until a slot frees, so new clients
/// wait in the kernel backlog only while every connection is busy. When `accept` fails for lack
/// of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM) it backs off briefly and tries
/// again instead of giving up.
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
        guard !closed, !watching else { return }
        if retryAt != 0 {
            if now >= retryAt {
                retryAt = 0
                resume()
            }
        } else if Socket.isReadable(fd) {
            // Full, and a client still waits: connections that were busy when it came may have
            // gone idle since (keep-alive), and only closing one of them makes room.
            closeLongestIdle()
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
                // Full. Only a client actually waiting is worth closing idle connections for;
                // until one comes, the socket stays watched so its arrival is noticed.
                if Socket.isReadable(fd) {
                    closeLongestIdle()
                    pause(retryAfter: nil)   // until a connection closes
                }
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
                default:   // EMFILE, ENFILE, ENOBUFS, ENOMEM… (capacity stays below the file limit)
                    pause(retryAfter: Self.backOff)
                    return
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

    /// Makes room: each loop closes a few of its longest-idle connections (each loop holds an
    /// even share, so its oldest are close to the server's oldest).
    private func closeLongestIdle() {
        for home in loops {
            home.loop.execute { home.closeLongestIdle(Self.evictionBatch) }
        }
    }

    /// Connections each loop closes per round when the server is full.
    private static let evictionBatch = 4

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
