/// What epoll is asked to report for a connection's socket.
struct SocketInterest: OptionSet, Equatable {
    let rawValue: UInt8

    static let read = SocketInterest(rawValue: 1)
    static let write = SocketInterest(rawValue: 2)
}
