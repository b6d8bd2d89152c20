import Foundation
import OpenMarketCore

/// The kind of value an option takes: how `--help` names it (`P`, `URL`, `v1|v2a|v2b`), how a
/// default is written, and how a typed text becomes the value, with a one-line reason naming the
/// flag when it cannot.
struct LaunchOptionKind<Value: Sendable>: Sendable {
    /// What follows the flag in `--help`; nil for a switch, which takes no value.
    let placeholder: String?
    /// What `--help` adds to the variable's name (`comma-separated`, or the switch's `1`).
    var variableNote: String?
    /// Given more than once, the values add up (comma-joined) instead of the last one winning.
    var isRepeatable = false
    /// The default as one would type it; nil when it is nothing one could type.
    let show: @Sendable (Value) -> String?
    let parse: @Sendable (_ text: String, _ name: LaunchOptionName) throws(LaunchOptions.Problem) -> Value

    /// The same kind for an option that may be absent (its default is nil: nothing shown).
    var optional: LaunchOptionKind<Value?> {
        let parse = self.parse, show = self.show
        return LaunchOptionKind<Value?>(placeholder: placeholder, variableNote: variableNote, isRepeatable: isRepeatable,
                                        show: { $0.flatMap(show) }, parse: { text, name throws(LaunchOptions.Problem) in
                                            try parse(text, name)
                                        })
    }
}

/// The names an option's problems are told with.
struct LaunchOptionName: Sendable {
    let flag: String
    let variable: String

    func problem(_ reason: String) -> LaunchOptions.Problem { LaunchOptions.Problem(description: "--\(flag) \(reason)") }
}

extension LaunchOptionKind where Value == String {
    /// Any text, taken as given (a folder, a file, an identifier).
    static func text(_ placeholder: String) -> Self {
        Self(placeholder: placeholder, show: { $0 }, parse: { text, _ in text })
    }

    /// An address to listen on.
    static var address: Self {
        Self(placeholder: "H", show: { $0 }, parse: { text, name throws(LaunchOptions.Problem) in
            guard !text.isEmpty, !text.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw name.problem("must be an address like 127.0.0.1 or 0.0.0.0")
            }
            return text
        })
    }

    /// A file that must be readable when the panel starts (`what` names it in the problem).
    static func readableFile(_ what: String) -> Self {
        Self(placeholder: "FILE", show: { $0 }, parse: { file, name throws(LaunchOptions.Problem) in
            guard !file.isEmpty, FileManager.default.isReadableFile(atPath: file) else {
                throw LaunchOptions.Problem(description: "--\(name.flag): cannot read the \(what) '\(file)'")
            }
            return file
        })
    }
}

extension LaunchOptionKind where Value == Int {
    static var port: Self {
        Self(placeholder: "P", show: { String($0) }, parse: { text, name throws(LaunchOptions.Problem) in
            guard let value = Int(text), (0...65535).contains(value) else {
                throw name.problem("must be a port number from 0 to 65535, not '\(text)'")
            }
            return value
        })
    }

    /// A whole number within `range`; `unit` (`days`) is named in the problem.
    static func number(_ range: ClosedRange<Int>, unit: String? = nil) -> Self {
        let what = unit.map { "a number of \($0)" } ?? "a number"
        return Self(placeholder: "N", show: { String($0) }, parse: { text, name throws(LaunchOptions.Problem) in
            guard let value = Int(text), range.contains(value) else {
                throw name.problem("must be \(what) from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        })
    }

    static var positiveNumber: Self {
        Self(placeholder: "N", show: { String($0) }, parse: { text, name throws(LaunchOptions.Problem) in
            guard let value = Int(text), value > 0 else { throw name.problem("must be a positive number") }
            return value
        })
    }
}

extension LaunchOptionKind where Value == TimeInterval {
    /// Seconds, more than 0 and at most `limit`.
    static func seconds(upTo limit: Int) -> Self {
        Self(placeholder: "SECONDS", show: { $0 == $0.rounded() ? String(Int($0)) : String($0) },
             parse: { text, name throws(LaunchOptions.Problem) in
                 guard let value = Double(text), value > 0, value <= Double(limit) else {
                     throw name.problem("must be a number of seconds from 0 to \(limit)")
                 }
                 return value
             })
    }
}

extension LaunchOptionKind where Value == Bool {
    /// A flag without a value; its variable is on with `1`, `true` or `yes`.
    static var onOff: Self {
        Self(placeholder: nil, variableNote: "1", show: { _ in nil }, parse: { text, name throws(LaunchOptions.Problem) in
            switch text.lowercased() {
            case "1", "true", "yes": return true
            case "0", "false", "no": return false
            default: throw LaunchOptions.Problem(description: "\(name.variable) must be 1 or 0, not '\(text)'")
            }
        })
    }
}

extension LaunchOptionKind where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the type's cases, by name (any letter case).
    static var choice: Self {
        let names = Value.allCases.map(\.rawValue)
        let spelled = names.dropLast().joined(separator: ", ") + " or " + names.last!
        return Self(placeholder: names.joined(separator: "|"), show: { $0.rawValue },
                    parse: { text, name throws(LaunchOptions.Problem) in
                        guard let value = Value(rawValue: text.lowercased()) else {
                            throw name.problem("must be \(spelled), not '\(text)'")
                        }
                        return value
                    })
    }
}

extension LaunchOptionKind where Value == URL {
    /// The API's base URL.
    static var httpURL: Self {
        Self(placeholder: "URL", show: { $0.absoluteString }, parse: { text, name throws(LaunchOptions.Problem) in
            guard let url = URL(string: text), Self.isHTTP(url) else {
                throw name.problem("must be an http:// or https:// URL, not '\(text)'")
            }
            return url
        })
    }

    /// An address people open: scheme, host and port, maybe a path, nothing after it.
    static var publicAddress: Self {
        Self(placeholder: "URL", show: { $0.absoluteString }, parse: { text, name throws(LaunchOptions.Problem) in
            guard let url = URL(string: text), Self.isHTTP(url), url.query == nil, url.fragment == nil else {
                throw name.problem("must be an http:// or https:// address like https://192.168.0.10:8080, not '\(text)'")
            }
            return url
        })
    }

    static func isHTTP(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host?.isEmpty == false
    }
}

extension LaunchOptionKind where Value == [URL] {
    /// Origins (scheme, host, port), comma-separated.
    static var origins: Self {
        Self(placeholder: "URLS", variableNote: "comma-separated", show: { _ in nil },
             parse: { text, name throws(LaunchOptions.Problem) in
                 var origins: [URL] = []
                 for item in text.split(separator: ",") {
                     let trimmed = item.trimmingCharacters(in: .whitespaces)
                     guard let url = URL(string: trimmed), LaunchOptionKind<URL>.isHTTP(url),
                           url.path.isEmpty || url.path == "/", url.query == nil else {
                         throw name.problem("takes origins like https://images.example.com, not '\(trimmed)'")
                     }
                     origins.append(url)
                 }
                 return origins
             })
    }
}

extension LaunchOptionKind where Value == [String] {
    /// Host names with an optional port, comma-separated, checked as the allow list will take them.
    static var hostNames: Self {
        Self(placeholder: "NAME[:PORT]", variableNote: "comma-separated", isRepeatable: true, show: { _ in nil },
             parse: { text, _ throws(LaunchOptions.Problem) in
                 let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                 do throws(HostAllowList.Problem) {
                     _ = try HostAllowList(bindHost: "127.0.0.1", allowedHosts: names, interfaces: [], hostName: "")
                 } catch {
                     throw LaunchOptions.Problem(description: error.description)
                 }
                 return names
             })
    }
}

extension LaunchOptionKind where Value == TimeZone {
    static var timeZone: Self {
        Self(placeholder: "ZONE", show: { _ in nil }, parse: { text, name throws(LaunchOptions.Problem) in
            guard let zone = TimeZone(identifier: text) else {
                throw name.problem("must be a zone name like Asia/Seoul, not '\(text)'")
            }
            return zone
        })
    }
}
