import Foundation

/// The bytes of one response on their way to the transport: an in-memory buffer (head, data,
/// stream pieces), then possibly a file. Memory is taken when a response is queued and given
/// back when it is out, so an idle connection holds no buffer.
struct ResponseWriter {
    private var buffer: [UInt8] = []
    private var offset = 0
    /// Bytes that follow the buffer without being copied into it (a cached file's contents),
    /// written together with the buffer's rest in one call; `sharedOffset` of them are out.
    private var shared: Data?
    private var sharedOffset = 0
    private var file: (fd: Int32, offset: Int, end: Int)?
    /// A streaming body: `open` until its producer ends; the waiter is the producer, parked
    /// until the buffer drained.
    private(set) var stream = StreamProgress.none
    /// When a write was last attempted (the write deadline counts from it).
    private(set) var lastAttempt = monotonicNanos()
    /// Since when queued bytes wait and the transport took none of them (nil: bytes move, or
    /// nothing waits). A pushed stream's reader counts as gone after `streamStallTimeout`.
    private(set) var stalledSince: UInt64?

    enum StreamProgress {
        case none
        case open(waiter: CheckedContinuation<Bool, Never>?)
        case ended
    }

    enum Outcome {
        /// Everything queued so far is with the transport (a stream may still add more).
        case drained
        /// The transport would block; wait for writability.
        case blocked
        case failed
    }

    /// Bytes queued and not yet taken by the transport.
    var hasPending: Bool { offset < buffer.count || shared != nil || file != nil }

    /// Bytes of the buffer not yet taken (what a pushed stream has waiting for its reader).
    var bufferedByteCount: Int { buffer.count - offset }

    /// The whole response is out: nothing pending and no stream still producing.
    var isComplete: Bool {
        if hasPending { return false }
        if case .open = stream { return false }
        return true
    }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        assert(shared == nil, "bytes appended after a shared body would go out before it")
        buffer.append(contentsOf: bytes)
    }

    /// Queues `data` after the buffer without copying it (nothing may be appended after it).
    mutating func appendShared(_ data: Data) {
        guard !data.isEmpty else { return }
        shared = data
        sharedOffset = 0
    }

    /// What became of a file response.
    enum QueuedFile: Equatable {
        case queued(size: Int)
        /// No file at the path (any more): a handler's check that it exists can race a delete.
        case missing
        /// There, but not a regular file this process can read.
        case unreadable
    }

    /// Queues a regular file to follow the buffer. Once open, the bytes sent are the file's even
    /// if it is deleted meanwhile.
    mutating func queueFile(path: String, send: Bool) -> QueuedFile {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            return .unreadable
        }
        let size = Int(info.st_size)
        if send && size > 0 { file = (fd, 0, size) } else { Glibc.close(fd) }
        return .queued(size: size)
    }

    /// Queues a regular file known to have `size` bytes; false (nothing queued) when it cannot be
    /// opened or its size changed, so a precomputed Content-Length never lies.
    mutating func queueFile(path: String, size: Int) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == size else {
            Glibc.close(fd)
            return false
        }
        file = (fd, 0, size)
        return true
    }

    mutating func openStream() { stream = .open(waiter: nil) }

    /// Parks the stream's producer until the buffer drained.
    mutating func park(_ waiter: CheckedContinuation<Bool, Never>) { stream = .open(waiter: waiter) }

    mutating func endStream() {
        if case .open(let waiter?) = stream { waiter.resume(returning: false) }
        stream = .ended
    }

    /// Writes until everything queued is taken or the transport blocks. `scratch` carries file
    /// bytes when the transport cannot `sendfile` (TLS).
    mutating func flush(to transport: any ConnectionTransport, fd: Int32,
                        scratch: UnsafeMutableRawBufferPointer) -> Outcome {
        lastAttempt = monotonicNanos()
        while true {
            if transport.wantsWritable {
                switch transport.flushPending() {
                case .done, .bytes: break
                case .wouldBlock: return blocked()
                case .closed, .failed: return .failed
                }
            }
            let step: TransportResult
            if let body = shared {
                step = buffer.withUnsafeBytes { head in
                    body.withUnsafeBytes { tail in
                        transport.write(UnsafeRawBufferPointer(rebasing: head[offset...]),
                                        UnsafeRawBufferPointer(rebasing: tail[sharedOffset...]))
                    }
                }
                if case .bytes(let n) = step {
                    let fromBuffer = min(n, buffer.count - offset)
                    offset += fromBuffer
                    sharedOffset += n - fromBuffer
                    if sharedOffset >= body.count { shared = nil; sharedOffset = 0 }
                }
            } else if offset < buffer.count {
                step = buffer.withUnsafeBytes { transport.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                if case .bytes(let n) = step { offset += n }
            } else if let current = file {
                step = sendFilePiece(current, through: transport, fd: fd, scratch: scratch)
            } else {
                releaseBuffer()
                if transport.wantsWritable { continue }
                stalledSince = nil
                if case .open(let waiter?) = stream {
                    stream = .open(waiter: nil)
                    waiter.resume(returning: true)   // the producer may send its next piece
                }
                return .drained
            }
            switch step {
            case .bytes(let n):
                if n > 0 { stalledSince = nil }
                continue
            case .wouldBlock:
                if transport.wantsWritable { continue }   // pending ciphertext first, then retry
                return blocked()
            case .closed, .failed, .done: return .failed
            }
        }
    }

    private mutating func blocked() -> Outcome {
        if stalledSince == nil { stalledSince = lastAttempt }
        return .blocked
    }

    private mutating func sendFilePiece(_ current: (fd: Int32, offset: Int, end: Int), through transport: any ConnectionTransport,
                                        fd: Int32, scratch: UnsafeMutableRawBufferPointer) -> TransportResult {
        let count = min(current.end - current.offset, 1 << 20)
        var position = current.offset
        let result: TransportResult
        if transport.canSendFile {
            switch Socket.sendFile(fd, file: current.fd, offset: &position, count: count) {
            case .done(let n): result = n == 0 ? .closed : .bytes(n)
            case .wouldBlock: result = .wouldBlock
            case .closed: result = .closed
            case .failed(let code): result = .failed(code)
            }
        } else {
            let n = pread(current.fd, scratch.baseAddress, min(count, scratch.count), off_t(position))
            guard n > 0 else { return .failed(n == 0 ? 0 : errno) }   // the file shrank under us
            result = transport.write(UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
            if case .bytes(let sent) = result { position += sent }
        }
        if position >= current.end {
            Glibc.close(current.fd)
            file = nil
        } else {
            file = (current.fd, position, current.end)
        }
        return result
    }

    /// Gives the buffer's memory back once everything in it is sent.
    private mutating func releaseBuffer() {
        if buffer.capacity > 0 { buffer = [] }
        offset = 0
    }

    /// Drops everything (the connection is closing).
    mutating func discard() {
        if let file { Glibc.close(file.fd) }
        file = nil
        buffer = []
        offset = 0
        shared = nil
        sharedOffset = 0
        stalledSince = nil
        endStream()
    }

    /// Ready for the next response.
    mutating func reset() {
        stream = .none
    }
}
