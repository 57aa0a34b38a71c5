extension MustacheLibrary {
    /// Refuses, at load time, partial tags that name no template and partials that include
    /// themselves again outside any section (such a loop never ends, whatever the data).
    /// Templates are checked in name order so the same library always reports the same problem.
    func checkPartials() throws(MustacheError) {
        let names = templateNames
        for name in names {
            guard let template = templates[name] else { continue }
            for call in template.partialCalls where templates[call.name] == nil {
                throw MustacheError(.unknownPartial, path: template.path, line: call.line, tag: call.tag,
                                    reason: "unknown partial \(call.tag); add a template named \(call.name) or correct the name")
            }
        }
        try checkUnconditionalCycles(names)
    }

    /// A depth-first walk over "includes outside any section" edges, with an explicit stack so a
    /// long chain of partials cannot exhaust the thread's stack.
    private func checkUnconditionalCycles(_ names: [String]) throws(MustacheError) {
        enum State { case visiting, done }
        struct Step {
            var template: MustacheTemplate
            var calls: [MustacheNode.PartialCall]
            var next = 0
        }
        func step(_ template: MustacheTemplate) -> Step {
            Step(template: template, calls: template.partialCalls.filter { !$0.isConditional })
        }
        var states: [String: State] = [:]
        for root in names where states[root] == nil {
            guard let template = templates[root] else { continue }
            states[root] = .visiting
            var stack = [step(template)]
            while let top = stack.last {
                guard top.next < top.calls.count else {
                    states[top.template.name] = .done
                    stack.removeLast()
                    continue
                }
                let call = top.calls[top.next]
                stack[stack.count - 1].next += 1
                switch states[call.name] {
                case .done?:
                    continue
                case .visiting?:
                    let loopStart = stack.firstIndex { $0.template.name == call.name } ?? 0
                    let chain = (stack[loopStart...].map(\.template.name) + [call.name]).joined(separator: " → ")
                    throw MustacheError(.partialCycle, path: top.template.path, line: call.line, tag: call.tag,
                                        reason: "\(call.tag) includes \(call.name) again whatever the data (\(chain)), so rendering would never end; put it inside a section that stops the recursion")
                case nil:
                    guard let next = templates[call.name] else { continue }
                    states[call.name] = .visiting
                    stack.append(step(next))
                }
            }
        }
    }
}
