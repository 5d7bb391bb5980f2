// The SCXML 1.0 element grammar in one table: for each element, the attributes it takes and the
// SCXML elements it may contain, in the order messages list them. The builder asks it for every
// element it builds; nothing else restates it.

/// What an element allows.
struct SCXMLElementRule {
    /// The attributes without a namespace that the element takes.
    let attributes: SCXMLNameList
    /// The SCXML elements it may contain (empty for elements with data content or none).
    let children: SCXMLNameList

    /// Each name's rule, by raw value (an attribute name or `unknown` allows nothing).
    static let table: [SCXMLElementRule] = SCXMLName.allCases.map(rule(of:))

    /// The executable content elements: what `<onentry>`, `<onexit>`, `<transition>`,
    /// `<foreach>` and `<finalize>` contain.
    static let executableContent = SCXMLName.onentry.rule.children

    /// Every element of SCXML 1.0, in document order of the specification's list.
    static let elementNames: [String] = SCXMLName.allCases.filter(\.isElement).map(\.text)

    private static func rule(of name: SCXMLName) -> SCXMLElementRule {
        let executable: [SCXMLName] = [.raise, .if, .foreach, .log, .assign, .script, .send, .cancel]
        func allows(_ attributes: [SCXMLName], children: [SCXMLName] = []) -> SCXMLElementRule {
            SCXMLElementRule(attributes: SCXMLNameList(attributes), children: SCXMLNameList(children))
        }
        switch name {
        case .scxml:
            return allows([.initial, .name, .version, .datamodel, .binding],
                children: [.state, .parallel, .final, .datamodel, .script])
        case .state:
            return allows([.id, .initial],
                children: [.onentry, .onexit, .transition, .initial, .state, .parallel, .final, .history, .datamodel, .invoke])
        case .parallel:
            return allows([.id],
                children: [.onentry, .onexit, .transition, .state, .parallel, .history, .datamodel, .invoke])
        case .final: return allows([.id], children: [.onentry, .onexit, .donedata])
        case .history: return allows([.id, .type], children: [.transition])
        case .initial: return allows([], children: [.transition])
        case .transition: return allows([.event, .cond, .target, .type], children: executable)
        case .onentry, .onexit, .finalize: return allows([], children: executable)
        case .datamodel: return allows([], children: [.data])
        case .data: return allows([.id, .src, .expr])
        case .donedata: return allows([], children: [.content, .param])
        case .content: return allows([.expr])
        case .param: return allows([.name, .expr, .location])
        case .invoke:
            return allows([.type, .typeexpr, .src, .srcexpr, .id, .idlocation, .namelist, .autoforward],
                children: [.param, .finalize, .content])
        case .raise: return allows([.event])
        case .if: return allows([.cond], children: executable + [.elseif, .else])
        case .elseif: return allows([.cond])
        case .else: return allows([])
        case .foreach: return allows([.array, .item, .index], children: executable)
        case .log: return allows([.label, .expr])
        case .assign: return allows([.location, .expr])
        case .script: return allows([.src])
        case .send:
            return allows([.event, .eventexpr, .target, .targetexpr, .type, .typeexpr, .id, .idlocation, .delay,
                .delayexpr, .namelist], children: [.param, .content])
        case .cancel: return allows([.sendid, .sendidexpr])
        default: return allows([])
        }
    }
}

extension SCXMLName {
    /// Whether this is an element name (not an attribute name, not `unknown`).
    var isElement: Bool { self != .unknown && rawValue <= SCXMLName.cancel.rawValue }

    /// What the element allows (nothing, for an attribute name or `unknown`).
    @inline(__always)
    var rule: SCXMLElementRule { SCXMLElementRule.table[Int(rawValue)] }
}
