import Foundation

/// Traffic for the clean-stop tests: `clients` connections at once, each making
/// `requests` requests on one kept-alive connection, the first half one by one and the rest
/// pipelined, reading every answer. Answers, per client, the path and status of each answer in
/// the order they came; the caller sends SIGTERM next and compares them with the access log.
/// Blocking: call it through `offPool`.
public enum StopTraffic {
    public struct Answer: Equatable, Sendable {
        public var path: String
        public var status: Int
    }

    public static func run(port: Int, clients: Int, requests: Int,
                           path: @escaping @Sendable (_ client: Int, _ request: Int) -> String) throws -> [[Answer]] {
        let results = Locked<[Int: Result<[Answer], any Error>]>([:])
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            // A thread each, so the four really overlap (the concurrency pool has ~2 threads here).
            Thread.detachNewThread {
                defer { group.leave() }
                let outcome = Result { () throws -> [Answer] in
                    let connection = try RawHTTPClient.connectNow(port: port)
                    let paths = (0..<requests).map { path(client, $0) }
                    let oneByOne = paths.count / 2
                    var statuses: [Int] = []
                    for single in paths[..<oneByOne] { statuses += try connection.pipelineNow([single]).map(\.status) }
                    statuses += try connection.pipelineNow(Array(paths[oneByOne...])).map(\.status)
                    return zip(paths, statuses).map { Answer(path: $0, status: $1) }
                }
                results.withLock { $0[client] = outcome }
            }
        }
        group.wait()
        return try (0..<clients).map { try results.value[$0]!.get() }
    }

    /// The access-log lines of `log` (the process's standard error) whose route contains
    /// `routePart`, as "METHOD ROUTE STATUS".
    public static func loggedRequests(in log: String, routePart: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 5, fields[3].hasSuffix("B"), fields[1].contains(routePart) else { return nil }
            return fields[0...2].joined(separator: " ")
        }
    }
}

/// A small lock for the helper above (TestSupport does not import the project's modules).
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&stored) } }
}
