import Foundation

/// A template compiled for one view type and one language: static text already joined and
/// escaped, every name already bound to its accessor. Rendering runs the steps in order into
/// one `HTMLBuffer`, which becomes the response body without a copy.
public struct TemplateProgram<View: TemplateView>: Sendable {
    public let name: String
    let block: StepBlock<View>

    /// The page as the response body's bytes.
    public func render(_ view: View, capacity: Int = 16 * 1024) throws(TemplateError) -> Data {
        var state = RenderState(out: HTMLBuffer(capacity: capacity))
        try block.run(view, &state)
        return state.out.takeData()
    }

    /// A frame (the layout) around a page: the page is rendered where the frame's `body` field
    /// stands, into the same buffer.
    public func render(_ view: View, around page: EmbeddedPage, capacity: Int = 64 * 1024) throws(TemplateError) -> Data {
        var state = RenderState(out: HTMLBuffer(capacity: capacity), body: page.render)
        try block.run(view, &state)
        return state.out.takeData()
    }

    /// This page, to be rendered inside a frame.
    public func embedding(_ view: View) -> EmbeddedPage {
        let block = self.block
        return EmbeddedPage { state throws(TemplateError) in try block.run(view, &state) }
    }

    /// Tests and tools: the page as text.
    public func renderString(_ view: View) throws(TemplateError) -> String {
        String(decoding: try render(view), as: UTF8.self)
    }
}

/// A page waiting to be rendered inside a frame.
public struct EmbeddedPage: Sendable {
    let render: @Sendable (inout RenderState) throws(TemplateError) -> Void
}

/// What a render carries along: the output, and the views of enclosing sections that inner
/// sections read (only the levels some inner name needs are stored; see `TemplateCompiler`).
struct RenderState: ~Copyable {
    var out: HTMLBuffer
    var slots: [(any TemplateView)?] = []
    var body: (@Sendable (inout RenderState) throws(TemplateError) -> Void)?

    /// Far beyond any real page (the list of 100 products is ~150 KB): partials that include each
    /// other inside loops multiply, and such a template bug should fail, not take the process's memory.
    static let maximumOutputBytes = 8 * 1024 * 1024

    mutating func store(_ view: any TemplateView, at level: Int) {
        while slots.count <= level { slots.append(nil) }
        slots[level] = view
    }

    /// The frame's `{{{body}}}`: the page runs with its own slots (its levels start at 0 too).
    mutating func renderBody() throws(TemplateError) {
        guard let body else { return }
        let frameSlots = slots
        slots = []
        self.body = nil
        defer {
            slots = frameSlots
            self.body = body
        }
        try body(&self)
    }
}

/// A step's code: it reads its view through a raw pointer (the view stays borrowed, no copy),
/// so that steps and the loop over them are not generic: unspecialised generic code would look
/// up type metadata on every block run (about a third of a list page's render time when this
/// was generic). The rules that keep it sound: a pointer comes only from a pointer-lending
/// call around the run (on the view, or on a list's array), never outlives it, and points at a
/// `View` (the memory is bound to it), which is the type the step was compiled for
/// (`StepBlock<View>`); `assumingMemoryBound(to: View.self)` only restates that. Checked by
/// `TemplateProgramTests`/`TemplateRenderingTests` and the `templates` fuzz target under ASan
/// (rows of mixed sizes, enclosing views read from slots, empty and spare-capacity lists).
typealias StepFunction = @Sendable (UnsafeRawPointer, inout RenderState) throws(TemplateError) -> Void

enum Step: Sendable {
    /// Static text, escaped and joined at compile time.
    case bytes([UInt8])
    case run(StepFunction)
}

/// The steps of one scope: a whole template, or the inside of a section of child views.
final class StepBlock<View: TemplateView>: Sendable {
    let steps: [Step]
    /// The level to store this block's view at, when a section inside reads one of its fields.
    let slot: Int?

    init(steps: [Step], slot: Int?) {
        self.steps = steps
        self.slot = slot
    }

    func run(_ view: View, _ state: inout RenderState) throws(TemplateError) {
        try withUnsafePointer(to: view) { (pointer) throws(TemplateError) in try run(at: pointer, &state) }
    }

    /// The view where it lies (a list's element): never copied, unless a section inside reads it.
    func run(at view: UnsafePointer<View>, _ state: inout RenderState) throws(TemplateError) {
        if let slot { state.store(view.pointee, at: slot) }
        try runSteps(steps, UnsafeRawPointer(view), &state)
    }
}

func runSteps(_ steps: [Step], _ view: UnsafeRawPointer, _ state: inout RenderState) throws(TemplateError) {
    for index in steps.indices {
        // A runaway template (partials that include each other inside loops) fails instead of
        // eating memory.
        guard state.out.count <= RenderState.maximumOutputBytes else {
            throw TemplateError(template: "", line: 0, reason: "the page grew beyond \(RenderState.maximumOutputBytes) bytes")
        }
        switch steps[index] {
        case .bytes(let bytes): state.out.append(bytes)
        case .run(let step): try step(view, &state)
        }
    }
}
