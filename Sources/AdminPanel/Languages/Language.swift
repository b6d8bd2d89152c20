import Foundation

/// The languages the panel speaks. Adding one means adding its catalog (`Templates/strings/<code>.json`)
/// with every key, and a case here.
enum Language: String, Sendable, CaseIterable {
    case en, ko

    static let cookieName = "om_lang"
    static let fallback = Language.en

    /// `?lang=` first (the header links), then the `om_lang` cookie it set, then the browser's
    /// `Accept-Language` (highest weight we speak), else English.
    static func choose(query: String?, cookie: String?, acceptLanguage: String?) -> Language {
        if let query, let language = Language(rawValue: query.lowercased()) { return language }
        if let cookie, let language = Language(rawValue: cookie.lowercased()) { return language }
        return acceptLanguage.flatMap(preferred(in:)) ?? fallback
    }

    /// The best match in an `Accept-Language` value (`ko-KR,ko;q=0.9,en;q=0.8`). Ties keep the
    /// header's order; `q=0` means "not this one"; `*` matches the fallback.
    static func preferred(in header: String) -> Language? {
        var best: (language: Language, weight: Double)?
        for item in header.split(separator: ",").prefix(32) {
            let parts = item.split(separator: ";")
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !tag.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q", let value = Double(pair[1]), value.isFinite {
                    weight = min(1, max(0, value))
                }
            }
            guard weight > 0 else { continue }
            let primary = String(tag.split(separator: "-").first ?? "")
            let language = primary == "*" ? fallback : Language(rawValue: primary)
            guard let language else { continue }
            if best == nil || weight > best!.weight { best = (language, weight) }
        }
        return best?.language
    }
}
