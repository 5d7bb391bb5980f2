import Statechart

/// Executable content (SCXML 4): each block runs until an element fails, which raises
/// `error.execution` (or the `<send>` error) and skips the rest of the block (4.9).
extension SCXMLSession {
    /// Runs one block of executable content; an error stops the block and raises error.execution.
    /// `slots`, when given, is the first of `actions.count` slots of ``preparedAssignments``
    /// (the chart builder's), one per element of the block: its `<assign>`s are prepared by the
    /// datamodel on their first run.
    func run(_ actions: [SCXMLExecutable], ctx: ActionContext, origin: SCXMLOutgoingEvent.Origin? = nil,
             slots: Int? = nil) {
        // Which block runs, for the outgoing-event hook (``reportOutgoing(_:)``).
        contentOrigin = origin
        defer { contentOrigin = nil }
        rememberEvent(ctx)
        do {
            if let slots {
                for offset in actions.indices {
                    // Only an `<assign>`'s slot ever holds a handle; the element is read only
                    // when it has none.
                    let handle = preparedAssignments[slots + offset]
                    if handle >= 0 {
                        try datamodel.assign(prepared: handle)
                    } else if case .assign(let node) = actions[offset] {
                        try assign(node, slot: slots + offset)
                    } else {
                        try execute(actions[offset], ctx: ctx)
                    }
                }
            } else {
                for action in actions { try execute(action, ctx: ctx) }
            }
        } catch let error as SendFailure {
            raiseError(error.name, error.message, ctx: ctx, sendID: error.sendID)
        } catch {
            raiseError("error.execution", "\(error)", ctx: ctx)
        }
    }

    func string(_ source: SCXMLValueSource) throws -> String {
        switch source {
        case .literal(let text): return text
        case .expression(let expression): return try datamodel.evaluateString(expression)
        }
    }

    /// The `<assign>` in `slot` (``preparedAssignments``).
    private func assign(_ node: SCXMLAssign, slot: Int) throws {
        let model = datamodel!
        let handle = Self.preparedHandle(&preparedAssignments, slot) { model.prepareAssignment(node) }
        if handle == Self.byText {
            try model.assign(node.location, node.value)
        } else {
            try model.assign(prepared: handle)
        }
    }

    private func execute(_ action: SCXMLExecutable, ctx: ActionContext) throws {
        switch action {
        case .raise(let node):
            reportOutgoing(SCXMLOutgoingEvent(name: node.event, kind: .raised, origin: contentOrigin))
            ctx.raise(Event(node.event, payload: SCXMLEvent(name: node.event, type: .internal)))
        case .if(let node):
            for branch in node.branches {
                if let cond = branch.cond {
                    let holds: Bool
                    do { holds = try datamodel.evaluateCondition(cond) } catch {
                        throw SCXMLExecutionError("<if cond=\"\(cond)\"> at \(branch.sourceLocation): \(error)")
                    }
                    if !holds { continue }
                }
                for inner in branch.actions { try execute(inner, ctx: ctx) }
                break
            }
        case .foreach(let node):
            try datamodel.foreach(node) {
                for inner in node.actions { try execute(inner, ctx: ctx) }
            }
        case .log(let node):
            let message = try node.expr.map { try datamodel.logMessage($0) } ?? ""
            log(node.label, message)
        case .assign(let node):
            try datamodel.assign(node.location, node.value)
        case .script(let node):
            try datamodel.runScript(node)
        case .send(let node):
            try send(node, ctx: ctx)
        case .cancel(let node):
            ctx.cancel(sendID: try string(node.sendID))
        }
    }

    /// The event data of `<send>`, `<invoke>` and `<donedata>`: namelist and params as an
    /// object, or the content (inline XML is kept as markup and flagged, see
    /// ``SCXMLEvent/dataIsXML``).
    func payload(namelist: [String], params: [SCXMLParam], content: SCXMLContent?) throws -> (data: DataValue?, isXML: Bool) {
        if let content {
            switch content.value {
            case .expression(let expression)?: return (try datamodel.evaluate(expression), false)
            case .inline(let inline)?:
                switch inline {
                case .markup(let markup), .document(_, let markup): return (.string(markup), true)
                case .text: return (try datamodel.value(ofInline: inline), false)
                }
            case nil: return (nil, false)
            }
        }
        if namelist.isEmpty && params.isEmpty { return (nil, false) }
        return (.object(try namedValues(namelist: namelist, params: params)), false)
    }

    /// The values of a namelist and params, by name. A name given more than once keeps every
    /// value, as an array in document order (SCXML 5.10: duplicates must all be included).
    func namedValues(namelist: [String], params: [SCXMLParam]) throws -> [String: DataValue] {
        var values: [String: [DataValue]] = [:]
        for name in namelist { values[name, default: []].append(try datamodel.value(at: name)) }
        for param in params {
            let value: DataValue
            switch param.value {
            case .expression(let expression)?: value = try datamodel.evaluate(expression)
            case .location(let location)?: value = try datamodel.value(at: location)
            case nil: value = .null
            }
            values[param.name, default: []].append(value)
        }
        return values.mapValues { $0.count == 1 ? $0[0] : .array($0) }
    }

    /// Raises the error event `name` (error.execution, error.communication) with `message` as its data.
    func raiseError(_ name: String, _ message: String, ctx: ActionContext, sendID: String? = nil) {
        reportOutgoing(SCXMLOutgoingEvent(name: name, kind: .error(message: message), origin: contentOrigin))
        ctx.raise(Event(name, payload: SCXMLEvent(name: name, type: .platform, sendID: sendID, data: .string(message))))
    }
}
