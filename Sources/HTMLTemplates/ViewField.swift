/// One name a template may use on a view, and how to read it. Mustache's truthiness rules:
/// text and optional text are falsy when empty or nil, a flag when false, a list when empty, an
/// optional view when nil; ints, trusted HTML and single views are always truthy.
public struct ViewField<View: TemplateView>: Sendable {
    let name: String
    let access: Access

    enum Access: Sendable {
        case scalar(ScalarAccess<View>)
        case views(ViewsAccess<View>)
        /// The frame's page body (`{{{body}}}` in `layout.html`), rendered in place.
        case body
    }

    /// Escaped text.
    public static func text(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> String) -> ViewField {
        ViewField(name: name, access: .scalar(ScalarAccess(
            write: { view, out in out.appendEscaped(get(view)) }, isTruthy: { !get($0).isEmpty })))
    }

    /// Escaped text, or nothing (and falsy) when nil.
    public static func optionalText(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> String?) -> ViewField {
        ViewField(name: name, access: .scalar(ScalarAccess(
            write: { view, out in if let text = get(view) { out.appendEscaped(text) } },
            isTruthy: { get($0).map { !$0.isEmpty } ?? false })))
    }

    /// Markup built by our own code and already safe: the only kind written unescaped.
    public static func trustedHTML(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> String) -> ViewField {
        ViewField(name: name, access: .scalar(ScalarAccess(
            write: { view, out in out.appendRaw(get(view)) }, isTruthy: { _ in true })))
    }

    public static func int(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> Int) -> ViewField {
        ViewField(name: name, access: .scalar(ScalarAccess(
            write: { view, out in out.appendInt(get(view)) }, isTruthy: { _ in true })))
    }

    /// A condition for sections; written as a variable it shows `true` or nothing, as before.
    public static func flag(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> Bool) -> ViewField {
        ViewField(name: name, access: .scalar(ScalarAccess(
            write: { view, out in if get(view) { out.append(ScalarAccess<View>.trueText) } }, isTruthy: get)))
    }

    /// `{{#name}}…{{/name}}` renders once per child view, in the child's scope.
    public static func list<Child: TemplateView>(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> [Child]) -> ViewField {
        ViewField(name: name, access: .views(ViewsAccess(childType: Child.self, isTruthy: { !get($0).isEmpty }) { compiler, nodes, context throws(TemplateError) in
            let block = try compiler.block(nodes, as: Child.self, context)
            return { view, state throws(TemplateError) in
                let items = get(ViewRef(view))
                // Through the array's storage: each row is read where it lies, not copied out
                // (unspecialised generic code would copy it, retaining every field).
                try items.withUnsafeBufferPointer { (rows) throws(TemplateError) in
                    guard let first = rows.baseAddress else { return }
                    for index in 0..<rows.count { try block.run(at: first + index, &state) }
                }
            }
        }))
    }

    /// `{{#name}}…{{/name}}` renders in the child's scope when there is one.
    public static func optionalView<Child: TemplateView>(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> Child?) -> ViewField {
        ViewField(name: name, access: .views(ViewsAccess(childType: Child.self, isTruthy: { get($0) != nil }) { compiler, nodes, context throws(TemplateError) in
            let block = try compiler.block(nodes, as: Child.self, context)
            return { view, state throws(TemplateError) in
                if let child = get(ViewRef(view)) { try block.run(child, &state) }
            }
        }))
    }

    /// `{{#name}}…{{/name}}` always renders, in the child's scope.
    public static func view<Child: TemplateView>(_ name: String, _ get: @escaping @Sendable (ViewRef<View>) -> Child) -> ViewField {
        ViewField(name: name, access: .views(ViewsAccess(childType: Child.self, isTruthy: { _ in true }) { compiler, nodes, context throws(TemplateError) in
            let block = try compiler.block(nodes, as: Child.self, context)
            return { view, state throws(TemplateError) in
                try block.run(get(ViewRef(view)), &state)
            }
        }))
    }

    /// Where a frame puts the page it wraps (`TemplateProgram.render(_:around:)`).
    public static func body(_ name: String) -> ViewField {
        ViewField(name: name, access: .body)
    }

    /// What kind of field this is, for compile errors.
    var kindName: String {
        switch access {
        case .scalar: "value"
        case .views(let views): "section of \(views.childType) views"
        case .body: "page body"
        }
    }

    /// This field read from the innermost view itself.
    func boundHere() -> BoundField<View> {
        switch access {
        case .scalar(let scalar):
            let write = scalar.write, isTruthy = scalar.isTruthy
            return BoundField(name: name, kindName: kindName,
                              write: { view, state throws(TemplateError) in
                                  write(ViewRef(view), &state.out)
                              },
                              isTruthy: { view, _ in isTruthy(ViewRef(view)) }, section: nil)
        case .views(let views):
            return BoundField(name: name, kindName: kindName, write: nil,
                              isTruthy: { view, _ in views.isTruthy(ViewRef(view)) },
                              section: views.compile)
        case .body:
            return BoundField(name: name, kindName: kindName, write: { _, state throws(TemplateError) in try state.renderBody() },
                              isTruthy: { _, _ in true }, section: nil)
        }
    }
}

/// A field of an enclosing section's view, reached through the render state's slot for its level.
protocol OuterField: Sendable {
    func bound<Inner: TemplateView>(fromSlot level: Int, for _: Inner.Type) -> BoundField<Inner>
}


extension ViewField: OuterField {
    func bound<Inner: TemplateView>(fromSlot level: Int, for _: Inner.Type) -> BoundField<Inner> {
        // Rare (a row reading its page's field): the cast and copy happen only on this path.
        @Sendable func owner(_ state: borrowing RenderState) -> View? { state.slots[level] as? View }
        // The copy taken from the slot lives in this closure; the pointer to it only during the call.
        @Sendable func lent<Result>(_ view: View, _ body: (ViewRef<View>) -> Result) -> Result {
            withUnsafePointer(to: view) { body(ViewRef(UnsafeRawPointer($0))) }
        }
        switch access {
        case .scalar(let scalar):
            let write = scalar.write, isTruthy = scalar.isTruthy
            return BoundField(name: name, kindName: kindName,
                              write: { _, state throws(TemplateError) in
                                  if let view = owner(state) { lent(view) { write($0, &state.out) } }
                              },
                              isTruthy: { _, state in owner(state).map { lent($0, isTruthy) } ?? false }, section: nil)
        case .views(let views):
            return BoundField(name: name, kindName: kindName, write: nil,
                              isTruthy: { _, state in owner(state).map { lent($0, views.isTruthy) } ?? false },
                              section: { compiler, nodes, context throws(TemplateError) in
                                  let run = try views.compile(&compiler, nodes, context)
                                  return { _, state throws(TemplateError) in
                                      guard let view = owner(state) else { return }
                                      try withUnsafePointer(to: view) { (pointer) throws(TemplateError) in
                                          try run(UnsafeRawPointer(pointer), &state)
                                      }
                                  }
                              })
        case .body:
            return BoundField(name: name, kindName: kindName, write: { _, state throws(TemplateError) in try state.renderBody() },
                              isTruthy: { _, _ in true }, section: nil)
        }
    }
}

struct ScalarAccess<View>: Sendable {
    static var trueText: [UInt8] { [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")] }
    let write: @Sendable (ViewRef<View>, inout HTMLBuffer) -> Void
    let isTruthy: @Sendable (ViewRef<View>) -> Bool
}

struct ViewsAccess<View>: Sendable {
    /// Compiles a section's children for the child view type; the step it returns reads the
    /// view that owns this field through its pointer argument.
    typealias Compile = @Sendable (inout TemplateCompiler, [TemplateNode], CompileContext) throws(TemplateError) -> StepFunction
    let childType: any TemplateView.Type
    let isTruthy: @Sendable (ViewRef<View>) -> Bool
    let compile: Compile
}

/// A name resolved at compile time to closures on the innermost view (of type `Inner`, passed
/// as a pointer).
struct BoundField<Inner: TemplateView>: Sendable {
    let name: String
    let kindName: String
    /// `{{name}}`; nil for sections of views, which have no text.
    let write: StepFunction?
    let isTruthy: @Sendable (UnsafeRawPointer, borrowing RenderState) -> Bool
    /// `{{#name}}`: compiles the children in the child views' scope; nil for plain values.
    let section: ViewsAccess<Inner>.Compile?
}
