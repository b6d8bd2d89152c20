/// Where a block of nodes is being compiled: its file (for `file.html:line` errors), the level
/// of its view (0 for the template's own view, +1 per section of child views), the scopes of
/// the enclosing sections' views, and how deep sections and partials nest.
struct CompileContext: Sendable {
    var template: String
    var level: Int
    var outer: [Scope]
    var depth: Int
}

/// The fields of an enclosing section's view, looked up by name.
struct Scope: Sendable {
    let level: Int
    let typeName: String
    let find: @Sendable (String) -> (any OuterField)?

    init<View: TemplateView>(_: View.Type, level: Int) {
        self.level = level
        typeName = "\(View.self)"
        find = { View.templateFields.byName[$0] }
    }
}

/// Turns parsed nodes into steps bound to a view type, with mustache's name resolution done
/// once: a name is looked up in the innermost section's view, then outwards. A name no view
/// has is an error naming the file and line, so a template and its view cannot drift apart
/// unnoticed: the panel stops at start-up instead.
struct TemplateCompiler {
    let templates: [String: [TemplateNode]]
    /// `{{t.key}}` texts of the language being compiled.
    let strings: [String: String]
    /// Levels whose views some step compiled so far reads from a slot.
    private var slotReads: Set<Int> = []

    /// Deep enough for any sane page; stops a partial that includes itself, checked here once.
    static let maximumDepth = 64

    init(templates: [String: [TemplateNode]], strings: [String: String]) {
        self.templates = templates
        self.strings = strings
    }

    mutating func block<View: TemplateView>(_ nodes: [TemplateNode], as _: View.Type,
                                            _ context: CompileContext) throws(TemplateError) -> StepBlock<View> {
        if let duplicate = View.templateFields.duplicate {
            throw TemplateError(template: context.template, line: 0, reason: "\(View.self) declares '\(duplicate)' twice")
        }
        let enclosingReads = slotReads
        slotReads = []
        var steps: [Step] = []
        try emit(nodes, into: &steps, context, dot: nil as BoundField<View>?)
        let readsThisLevel = slotReads.contains(context.level)
        slotReads = enclosingReads.union(slotReads.filter { $0 < context.level })
        return StepBlock(steps: steps, slot: readsThisLevel ? context.level : nil)
    }

    private mutating func emit<View: TemplateView>(_ nodes: [TemplateNode], into steps: inout [Step],
                                                   _ context: CompileContext, dot: BoundField<View>?) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let text):
                appendStatic(Array(text.utf8), to: &steps)

            case .variable(let path, let line):
                if let text = try staticText(path, context, line) {
                    var escaped = HTMLBuffer(capacity: text.utf8.count + 16)
                    escaped.appendEscaped(text)
                    appendStatic(Array(escaped.takeData()), to: &steps)
                    continue
                }
                let field: BoundField<View>
                if path.isEmpty {
                    guard let dot else {
                        throw TemplateError(template: context.template, line: line,
                                            reason: "'{{.}}' stands outside a section on a value of \(View.self)")
                    }
                    field = dot
                } else {
                    field = try resolve(path, as: View.self, context, line)
                }
                guard let write = field.write else {
                    throw TemplateError(template: context.template, line: line,
                                        reason: "'{{\(path.joined(separator: "."))}}' is a \(field.kindName), not a value to show")
                }
                steps.append(.run(write))

            case .section(let path, let inverted, let children, let line):
                let inner = try deeper(context, line)
                if let text = try staticText(path, context, line) {
                    // A section on a fixed text is decided now, for this language.
                    if text.isEmpty == inverted { try emit(children, into: &steps, inner, dot: nil as BoundField<View>?) }
                    continue
                }
                let field: BoundField<View>
                if path.isEmpty {
                    guard let dot else {
                        throw TemplateError(template: context.template, line: line, reason: "'{{#.}}' stands outside a section on a value")
                    }
                    field = dot
                } else {
                    field = try resolve(path, as: View.self, context, line)
                }
                if let section = field.section, !inverted {
                    var child = inner
                    child.level = context.level + 1
                    child.outer = context.outer + [Scope(View.self, level: context.level)]
                    steps.append(.run(try section(&self, children, child)))
                } else {
                    // A value, or an inverted section: the children stay in this view's scope.
                    var body: [Step] = []
                    try emit(children, into: &body, inner, dot: inverted ? dot : field)
                    let isTruthy = field.isTruthy, children = body
                    steps.append(.run { view, state throws(TemplateError) in
                        if isTruthy(view, state) != inverted { try runSteps(children, view, &state) }
                    })
                }

            case .partial(let name, let line):
                guard let partial = templates[name] else {
                    throw TemplateError(template: context.template, line: line, reason: "partial '\(name)' does not exist")
                }
                // A partial compiles in the including context: the same view and scopes.
                var inner = try deeper(context, line)
                inner.template = name
                try emit(partial, into: &steps, inner, dot: dot)
            }
        }
    }

    private func deeper(_ context: CompileContext, _ line: Int) throws(TemplateError) -> CompileContext {
        var inner = context
        inner.depth += 1
        guard inner.depth < Self.maximumDepth else {
            throw TemplateError(template: context.template, line: line,
                                reason: "templates nest deeper than \(Self.maximumDepth) levels")
        }
        return inner
    }

    /// `t.key`: the language's text, fixed at compile time; nil for any other name.
    private func staticText(_ path: [String], _ context: CompileContext, _ line: Int) throws(TemplateError) -> String? {
        guard path.count == 2, path[0] == "t" else { return nil }
        guard let text = strings[path[1]] else {
            throw TemplateError(template: context.template, line: line, reason: "no text 't.\(path[1])' in the strings")
        }
        return text
    }

    private mutating func resolve<View: TemplateView>(_ path: [String], as _: View.Type, _ context: CompileContext,
                                                      _ line: Int) throws(TemplateError) -> BoundField<View> {
        let shown = path.joined(separator: ".")
        guard path.count == 1, let name = path.first else {
            throw TemplateError(template: context.template, line: line,
                                reason: "'\(shown)': typed views take single names (and t.key); give \(View.self) a field instead")
        }
        if let field = View.templateFields.byName[name] { return field.boundHere() }
        for scope in context.outer.reversed() {
            guard let field = scope.find(name) else { continue }
            slotReads.insert(scope.level)
            return field.bound(fromSlot: scope.level, for: View.self)
        }
        let around = context.outer.reversed().map(\.typeName)
        throw TemplateError(template: context.template, line: line,
                            reason: "\(View.self) has no field '\(name)'"
                                + (around.isEmpty ? "" : " (nor do the views around it: \(around.joined(separator: ", ")))"))
    }

    private func appendStatic(_ bytes: [UInt8], to steps: inout [Step]) {
        guard !bytes.isEmpty else { return }
        if case .bytes(let previous)? = steps.last {
            steps[steps.count - 1] = .bytes(previous + bytes)
        } else {
            steps.append(.bytes(bytes))
        }
    }
}
