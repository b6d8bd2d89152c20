import NetworkIO

/// The route templates a server can log, numbered once at start so a log record carries a
/// number instead of a String. Every template comes from the router (its routes and static
/// prefixes) or is `-`; a name it did not know (none today) is numbered on first use, under a
/// lock, so a record can never name the wrong route.
final class AccessLogRouteNames: Sendable {
    private let known: [String: UInt32]
    private let names: [String]
    /// Names met after start: rare by construction, so a lock shared by the loops is fine here.
    private let late = Locked<[String]>([])

    init(router: any ServerRouter) {
        var names = ["-"]
        for template in router.templates where !names.contains(template) { names.append(template) }
        for route in router.staticRoutes where !names.contains(route.template) { names.append(route.template) }
        self.names = names
        known = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, UInt32($0)) })
    }

    /// The number for `name` (called on an event loop).
    func number(_ name: String) -> UInt32 {
        if let number = known[name] { return number }
        return late.withLock { late in
            if let index = late.firstIndex(of: name) { return UInt32(names.count + index) }
            late.append(name)
            return UInt32(names.count + late.count - 1)
        }
    }

    /// The name for `number` (called on the log thread).
    func name(_ number: UInt32) -> String {
        let index = Int(number)
        if index < names.count { return names[index] }
        return late.withLock { late in index - names.count < late.count ? late[index - names.count] : "-" }
    }
}
