/// One request as an event loop hands it to the access log: fixed size, no reference counted
/// field, so writing it into a ring is a plain copy with no allocation and no retain. The
/// log thread turns it into an `AccessLogEntry` and formats the line.
struct AccessLogRecord {
    /// The method's bytes (tokens are ASCII). Longer than `methodCapacity` is cut there; the
    /// parser accepts any token, and a method that long only ever gets a 404 or 405.
    var method: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var methodLength: UInt8 = 0
    var status: UInt16 = 0
    /// Index into the server's `AccessLogRouteNames`.
    var route: UInt32 = 0
    var bytes: Int = 0
    var durationNanos: UInt64 = 0
    /// Monotonic time of the last byte: the log thread merges the loops' rings in this order.
    var finishedAt: UInt64 = 0

    static let methodCapacity = 24

    init() {}

    init(method: String, route: UInt32, status: Int, bytes: Int, started: UInt64, finished: UInt64) {
        // Packed by shifts (eight bytes a word, first byte lowest): no pointer, no allocation.
        var count = 0
        for byte in method.utf8.prefix(Self.methodCapacity) {
            let shifted = UInt64(byte) << (8 * UInt64(count % 8))
            switch count / 8 {
            case 0: self.method.0 |= shifted
            case 1: self.method.1 |= shifted
            default: self.method.2 |= shifted
            }
            count += 1
        }
        methodLength = UInt8(count)
        self.route = route
        self.status = UInt16(clamping: status)
        self.bytes = bytes
        durationNanos = finished &- started
        finishedAt = finished
    }

    var methodText: String {
        let bytes = (0..<Int(methodLength)).map { index in
            let word = index < 8 ? method.0 : index < 16 ? method.1 : method.2
            return UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func entry(routes: AccessLogRouteNames) -> AccessLogEntry {
        AccessLogEntry(method: methodText, route: routes.name(route), status: Int(status), bytes: bytes,
                       duration: .nanoseconds(Int64(clamping: durationNanos)))
    }
}
