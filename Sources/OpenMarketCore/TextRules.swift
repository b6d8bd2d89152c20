/// What every text field must be, in every dialect, in the client, the panel and the sandbox:
/// no control characters other than tab, CR and LF. C-string storage would cut a text at a NUL
/// (`"abc\u{0}def"` kept as `"abc"`), and other controls corrupt what other clients show.
public enum TextRules {
    /// True for U+0000–U+001F and U+007F–U+009F except tab, LF and CR.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// nil when the text is acceptable; else the reason, naming the first bad character's code
    /// point (never the text itself, which may be long or a secret).
    public static func controlCharacterProblem(_ text: String) -> String? {
        guard let bad = text.unicodeScalars.first(where: isForbidden) else { return nil }
        let hex = String(bad.value, radix: 16, uppercase: true)
        return "must not contain control characters (found U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
    }

    /// The same as a field issue for a form, in words for a seller.
    public static func controlCharacterIssues(_ text: String, field: String) -> [FieldIssue] {
        guard text.unicodeScalars.contains(where: isForbidden) else { return [] }
        return [FieldIssue(field: field, message: "Remove the invisible control characters from this field (tabs and line breaks are fine).",
                           code: "text_control_characters")]
    }
}
