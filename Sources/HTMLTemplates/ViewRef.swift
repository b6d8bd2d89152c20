/// The view a field's accessor reads, lent where it lies (a row in its list's array, a page on
/// the render's stack): `$0.name` in a field table loads that one member. Passing the view by
/// value instead would copy it whole, retaining every string in it, on each use of each field:
/// a tenth of a list page's render time.
///
/// Only for the duration of the accessor: it must not be stored or returned (the steps lend it
/// for one call, see `StepFunction`). Members are read through key paths, which the optimiser
/// turns into direct loads when the field table is compiled (the subscript is inlinable).
@dynamicMemberLookup
public struct ViewRef<View> {
    @usableFromInline let pointer: UnsafePointer<View>

    init(_ raw: UnsafeRawPointer) { pointer = raw.assumingMemoryBound(to: View.self) }

    @inlinable public subscript<Value>(dynamicMember member: KeyPath<View, Value>) -> Value {
        pointer.pointee[keyPath: member]
    }
}
