import Foundation
import HTTPServer

/// One row of the activity log as a writer hands it over: who (person and client address), what
/// (`action`, one of `ActivityAction`), on which product, and for edits each field old → new.
/// Never put a password, secret, identifier, token or cookie in any of these.
struct ActivityEntry: Sendable, Equatable {
    /// One field of an edit: its value before and after (`ActivityEntry.FieldChange(field:old:new:)`;
    /// in an entry's `changes:` simply `.init(field: "stock", old: "3", new: "0")`).
    struct FieldChange: Sendable, Equatable {
        var field: String
        var old: String
        var new: String
    }

    var person: String
    var address: String
    var action: String
    var productID: Int?
    var changes: [FieldChange]
    var detail: String?
    /// The run a `bulk` or `sheet` row belongs to (`data-bulk-run`), so the run can be reverted at once.
    var runID: String?

    init(person: String, address: String, action: String, productID: Int? = nil,
         changes: [FieldChange] = [], detail: String? = nil) {
        self.person = person
        self.address = address
        self.action = action
        self.productID = productID
        self.changes = changes
        self.detail = detail
    }

    /// The usual way a handler makes one: the signed-in person of `session`, the request's address.
    init(_ context: PanelContext, _ request: HTTPRequest, action: String, productID: Int? = nil,
         changes: [FieldChange] = [], detail: String? = nil) {
        self.init(person: context.person, address: request.remoteAddress, action: action, productID: productID,
                  changes: changes, detail: detail)
    }
}

/// The actions of the activity log (the `action` column and the `/activity` filter).
/// A new kind: add it here and its name as `activity_action_<kind>` in the catalogs (a feature's
/// own `Templates/strings/<feature>.<language>.json` will do); its sentence, if any, is an
/// `ActivityDetail` (see there).
enum ActivityAction {
    static let all = ["sign-in", "sign-in-failed", "sign-out", "register", "edit", "delete", "delete-refused", "bulk",
                      "person-invited", "role-changed", "person-disabled", "password-changed", "session-revoked",
                      "import", "restore", "revert", "sale-start", "sale-end", "sale-cancelled", "vendor-password-viewed", "sheet",
                      "sale-run-cancelled"]

    /// The catalog key of an action's name (`activity_action_sign-in`…).
    static func labelKey(_ action: String) -> String { "activity_action_" + action }

    /// An action's name in the reader's language; a kind the catalog does not know shows as itself.
    static func label(_ action: String, _ l: Localizer) -> String {
        l.catalog.texts[labelKey(action)] ?? action
    }
}

/// A stored row: the entry plus its number and time.
struct ActivityRecord: Sendable, Equatable {
    var id: Int
    var time: Date
    var entry: ActivityEntry
}
