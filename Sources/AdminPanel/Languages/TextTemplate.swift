/// A catalog text split once, at start-up, into literal parts and `{name}` slots, so filling it
/// on every list row is appends only, not a scan of the text. Filling gives exactly what
/// `Localizer.fill` gives: slots are cut where its one pass cuts them (first `}` after each `{`),
/// a slot takes its argument, else its particle (`KoreanParticles`, chosen by what is written so
/// far), and a slot that is neither hands the whole text back to `Localizer.fill`, which then
/// reads that `{` as a plain character.
struct TextTemplate: Sendable {
    enum Part: Sendable {
        case literal(String)
        case slot(String)
    }

    let text: String
    /// Empty when the text has no `{` (then it is shown as it is).
    let parts: [Part]

    init(_ text: String) {
        self.text = text
        guard text.utf8.contains(UInt8(ascii: "{")) else { parts = []; return }
        // Characters, as `Localizer.fill` walks them, so the cuts are the same.
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            parts.append(.slot(String(after[..<close])))
            rest = after[after.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
    }

    /// The text with each slot's value from `value`; nil when a slot has neither a value nor a
    /// particle (the caller then uses `Localizer.fill`).
    func fill(_ value: (String) -> String?) -> String? {
        guard !parts.isEmpty else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 32)
        for part in parts {
            switch part {
            case .literal(let literal):
                result += literal
            case .slot(let name):
                if let filled = value(name) {
                    result += filled
                } else if let particle = KoreanParticles.particle(Substring(name), after: result) {
                    result += particle
                } else {
                    return nil
                }
            }
        }
        return result
    }

    /// The text with `arguments` filled in.
    func filled(_ arguments: [String: String]) -> String {
        fill { arguments[$0] } ?? Localizer.fill(text, arguments)
    }

    /// The text with one argument filled in: no dictionary for the common one-value texts.
    func filled(_ name: String, _ argument: String) -> String {
        fill { $0 == name ? argument : nil } ?? Localizer.fill(text, [name: argument])
    }
}
