import Foundation

/// One option of `openmarket-admin`, declared once in `LaunchOptionTable`: its flag, its
/// environment variable, its default, its help line, the kind of value it takes, and where the
/// value goes. `--help`, the variable list, the README's table and the defaults of
/// `LaunchOptions` and `PanelConfiguration` all come from it.
struct LaunchOption<Value: Sendable>: Sendable {
    let flag: String
    let variable: String
    let kind: LaunchOptionKind<Value>
    private let makeDefault: @Sendable () -> Value
    /// The default in words, when it is not a value one could type ("the system's").
    let defaultInWords: String?
    let help: String
    private let store: @Sendable (inout LaunchOptions, Value) -> Void

    init(_ flag: String, _ variable: String, _ kind: LaunchOptionKind<Value>,
         default makeDefault: @autoclosure @escaping @Sendable () -> Value, inWords: String? = nil, help: String,
         into store: @escaping @Sendable (inout LaunchOptions, Value) -> Void) {
        self.flag = flag
        self.variable = variable
        self.kind = kind
        self.makeDefault = makeDefault
        self.defaultInWords = inWords
        self.help = help
        self.store = store
    }

    /// Made when asked: a default such as the system's time zone is read when options are made.
    var defaultValue: Value { makeDefault() }
}

/// What parsing and the help texts need of an option, whatever the type of its value.
protocol LaunchOptionRow: Sendable {
    var flag: String { get }
    var variable: String { get }
    var help: String { get }
    /// `--flag PLACEHOLDER`, or `--flag` for a switch.
    var synopsis: String { get }
    var takesValue: Bool { get }
    var isRepeatable: Bool { get }
    var variableNote: String? { get }
    /// The default: typed as one would type it, in words, or nil when there is none.
    var shownDefault: ShownDefault? { get }
    func apply(_ text: String, to options: inout LaunchOptions) throws(LaunchOptions.Problem)
}

/// A default as the help texts show it.
enum ShownDefault: Equatable {
    /// A value one could type (`8080`): code in the README.
    case value(String)
    case words(String)
}

extension LaunchOption: LaunchOptionRow {
    var synopsis: String { kind.placeholder.map { "--\(flag) \($0)" } ?? "--\(flag)" }
    var takesValue: Bool { kind.placeholder != nil }
    var isRepeatable: Bool { kind.isRepeatable }
    var variableNote: String? { kind.variableNote }

    var shownDefault: ShownDefault? {
        if let defaultInWords { return .words(defaultInWords) }
        return kind.show(defaultValue).map { .value($0) }
    }

    func apply(_ text: String, to options: inout LaunchOptions) throws(LaunchOptions.Problem) {
        store(&options, try kind.parse(text, LaunchOptionName(flag: flag, variable: variable)))
    }
}
