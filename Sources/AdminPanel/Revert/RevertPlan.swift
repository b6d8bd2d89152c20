import Foundation

/// What reverting one activity row does to a product as it is now: each field of the row whose
/// value is still the row's new value goes back to its old value; a field someone changed since
/// is left alone and listed as a conflict (compared with `EditMerge.same`, the edit form's rule,
/// so "12000" and "12,000" are one value). Fields the form cannot set back (v1's image count)
/// are listed as skipped.
struct RevertPlan: Sendable, Equatable {
    struct Conflict: Sendable, Equatable {
        var field: EditField
        /// The value the row set, and the value now.
        var rowNew: String
        var now: String
    }

    /// The values to send (the current values with the reverted fields set back).
    var values: ProductFormValues
    var reverted: [EditField]
    var conflicts: [Conflict]
    var skipped: [String]
    /// Fields already back at their old value (nothing to send for them).
    var alreadyBack: [EditField]

    init(changes: [ActivityEntry.FieldChange], current: ProductFormValues) {
        values = current
        reverted = []
        conflicts = []
        skipped = []
        alreadyBack = []
        for change in changes {
            guard let field = EditField(rawValue: change.field) else {
                skipped.append(change.field)
                continue
            }
            let now = current[field]
            if EditMerge.same(field, now, change.new) && !EditMerge.same(field, now, change.old) {
                values[field] = Self.formValue(field, change.old)
                reverted.append(field)
            } else if EditMerge.same(field, now, change.old) {
                alreadyBack.append(field)
            } else {
                conflicts.append(Conflict(field: field, rowNew: change.new, now: now))
            }
        }
    }

    /// A logged value as the form would hold it (a zero discount is an empty field).
    private static func formValue(_ field: EditField, _ logged: String) -> String {
        field == .discountedPrice && ProductFormValues.number(logged) == 0 ? "" : logged
    }
}
