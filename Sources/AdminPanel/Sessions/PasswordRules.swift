import Foundation

/// At least 10 characters and not the name. Also at most 1,024 bytes (a hash of a
/// megabyte-long password would be a cheap way to make the server work) and typed twice alike.
/// Answers catalog keys, so the message is in the reader's language.
enum PasswordRules {
    static let minimumLength = 10
    static let maximumBytes = 1024

    static func problem(password: String, confirmation: String?, name: String) -> String? {
        if password.count < minimumLength { return "password_too_short" }
        if password.utf8.count > maximumBytes { return "password_too_long" }
        let folded = password.trimmingCharacters(in: .whitespaces).lowercased()
        if !name.isEmpty, folded == name.lowercased() { return "password_is_name" }
        if let confirmation, confirmation != password { return "password_mismatch" }
        return nil
    }
}

/// Person names: 2–32 letters, digits, `.`, `_` or `-` (any script, so 김민준 works), unique
/// regardless of case. `local` is the implicit owner's name and cannot be taken.
enum PersonNameRules {
    static func problem(_ name: String) -> String? {
        if name.count < 2 || name.count > 32 { return "person_name_length" }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }) else {
            return "person_name_characters"
        }
        if name.lowercased() == "local" { return "person_name_reserved" }
        return nil
    }
}
