import Foundation

// Builds the SCXML document model from the XML tree and reports every structural error: unknown or
// misplaced elements, unknown, missing, invalid or conflicting attributes, and wrong numbers of
// children. Checks that need the whole document (ids, targets, initial states) are in SCXMLValidator.
//
// Elements are indices into the `XMLTree`; the namespaces in scope are looked up only when inline
// content is serialized. The SCXML children of the elements being built live on one stack shared
// by the whole build (each function pushes its element's children and pops them when done), so
// building allocates little beyond the model itself.

/// Turns the elements of an `XMLTree` into the SCXML model, collecting diagnostics.
struct SCXMLBuilder {
    typealias Element = XMLTree.Index

    /// Keeps the tree ``tree`` reads alive.
    let owner: XMLTree
    let tree: XMLTreeView
    let fileName: String
    let limits: SCXMLParser.Limits
    private(set) var diagnostics: [SCXMLDiagnostic] = []
    private var stateCount = 0
    /// The SCXML children of the elements being built, innermost last.
    private var childStack: [Element] = []
    private var tokenCache = TokenCache()

    init(tree: XMLTree, fileName: String, limits: SCXMLParser.Limits) {
        self.owner = tree
        self.tree = tree.view
        self.fileName = fileName
        self.limits = limits
        childStack.reserveCapacity(64)
    }

    static let executableElements = ["raise", "if", "foreach", "log", "assign", "script", "send", "cancel"]

    /// Every element of SCXML 1.0.
    static let knownElements: Set<String> = [
        "scxml", "state", "parallel", "final", "initial", "history", "transition", "onentry", "onexit",
        "datamodel", "data", "donedata", "content", "param", "invoke", "finalize", "raise", "if", "elseif",
        "else", "foreach", "log", "assign", "script", "send", "cancel",
    ]

    static let scxmlEventProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    // The allowed attributes and children of each element.
    static let documentAttributes = SCXMLNameList([.initial, .name, .version, .datamodel, .binding])
    static let documentChildren = SCXMLNameList([.state, .parallel, .final, .datamodel, .script])
    static let stateAttributes = SCXMLNameList([.id, .initial])
    static let stateChildren = SCXMLNameList([
        .onentry, .onexit, .transition, .initial, .state, .parallel, .final, .history, .datamodel, .invoke,
    ])
    static let parallelAttributes = SCXMLNameList([.id])
    static let parallelChildren = SCXMLNameList([
        .onentry, .onexit, .transition, .state, .parallel, .history, .datamodel, .invoke,
    ])
    static let finalAttributes = SCXMLNameList([.id])
    static let finalChildren = SCXMLNameList([.onentry, .onexit, .donedata])
    static let historyAttributes = SCXMLNameList([.id, .type])
    static let historyChildren = SCXMLNameList([.transition])
    static let transitionAttributes = SCXMLNameList([.event, .cond, .target, .type])
    static let transitionChildren = SCXMLNameList([.transition])
    static let noNames = SCXMLNameList([])
    static let dataChildren = SCXMLNameList([.data])
    static let dataAttributes = SCXMLNameList([.id, .src, .expr])
    static let exprAttributes = SCXMLNameList([.expr])
    static let paramAttributes = SCXMLNameList([.name, .expr, .location])
    static let doneDataChildren = SCXMLNameList([.content, .param])
    static let invokeAttributes = SCXMLNameList([
        .type, .typeexpr, .src, .srcexpr, .id, .idlocation, .namelist, .autoforward,
    ])
    static let invokeChildren = SCXMLNameList([.param, .finalize, .content])
    static let eventAttributes = SCXMLNameList([.event])
    static let foreachAttributes = SCXMLNameList([.array, .item, .index])
    static let logAttributes = SCXMLNameList([.label, .expr])
    static let assignAttributes = SCXMLNameList([.location, .expr])
    static let cancelAttributes = SCXMLNameList([.sendid, .sendidexpr])
    static let condAttributes = SCXMLNameList([.cond])
    static let srcAttributes = SCXMLNameList([.src])
    static let sendAttributes = SCXMLNameList([
        .event, .eventexpr, .target, .targetexpr, .type, .typeexpr, .id, .idlocation, .delay, .delayexpr, .namelist,
    ])
    static let sendChildren = SCXMLNameList([.param, .content])
    static let executableContent = SCXMLNameList([.raise, .if, .foreach, .log, .assign, .script, .send, .cancel])

    // MARK: - Reporting

    @inline(__always)
    func location(_ element: Element) -> SCXMLSourceLocation {
        SCXMLSourceLocation(file: fileName, line: tree.line(element), column: tree.column(element))
    }

    mutating func report(_ element: Element, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location(element), element: tree.localName(element), message: message))
    }

    /// `<state id='s1'>`, or `<state>` when the element has no id.
    func describe(_ element: Element) -> String {
        let name = tree.localName(element)
        if let id = tree.attribute("id", of: element) {
            return "<\(name) id='\(id)'>"
        }
        return "<\(name)>"
    }

    // MARK: - Attributes

    /// An element's SCXML attributes: those without a namespace that the element allows.
    struct AttributeValues {
        let tree: XMLTreeView
        let first: Int32
        let count: Int32
        let allowed: UInt64

        /// The index in the tree of the attribute `name`, if the element has it and allows it.
        @inline(__always)
        func index(of name: SCXMLName) -> Int? {
            guard allowed & name.bit != 0 else { return nil }
            var attribute = Int(first)
            let end = attribute + Int(count)
            while attribute < end {
                if tree.attributeCode(attribute) == name && tree.attributes[attribute].namespace < 0 { return attribute }
                attribute += 1
            }
            return nil
        }

        subscript(name: SCXMLName) -> String? {
            index(of: name).map { tree.attributeValue($0) }
        }

        /// Whether the attribute is present.
        func has(_ name: SCXMLName) -> Bool { index(of: name) != nil }
    }

    /// The value of attribute `name` split at whitespace (``tokens(_:)``), and whether the
    /// attribute is present. A value without separators is one token, and the arrays of equal
    /// values are one array (an event or a state named again shares it).
    mutating func tokens(_ values: AttributeValues, _ name: SCXMLName) -> (tokens: [String], present: Bool) {
        guard let attribute = values.index(of: name) else { return ([], false) }
        let record = tree.attributes[attribute]
        let start = Int(record.valueStart), count = Int(record.valueCount)
        if count == 0 { return ([], true) }
        // ASCII without separators or "\r" (nearly every value): one token, maybe seen before.
        // The same pass hashes the bytes for the cache.
        let base = tree.bytes.baseAddress! + start
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var index = 0
        while index < count {
            let byte = base[index]
            if byte >= 0x80 || byte <= 0x20 { break }
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
            index += 1
        }
        if index == count { return (tokenCache.tokens(base, count: count, hash: hash), true) }
        return (Self.tokens(tree.attributeValue(attribute)), true)
    }

    /// The element's attributes without a namespace, reporting those SCXML does not define for it.
    /// Attributes in other namespaces (`xml:lang`, extensions) are ignored.
    mutating func attributes(of element: Element, allowed: SCXMLNameList) -> AttributeValues {
        let range = tree.attributeRange(element)
        for attribute in range where tree.attributes[attribute].namespace < 0 {
            if allowed.contains(tree.attributeCode(attribute)) { continue }
            let name = tree.strings[Int(tree.attributes[attribute].name)]
            let elementName = tree.localName(element)
            if elementName == "parallel" && name == "initial" {
                report(
                    element,
                    "<parallel> cannot have an 'initial' attribute: all children of a parallel state are entered "
                        + "together; remove it")
            } else if allowed.isEmpty {
                report(element, "<\(elementName)> takes no attributes; remove '\(name)'")
            } else {
                var message = "<\(elementName)> has no attribute '\(name)'"
                if let suggestion = Suggestions.closest(to: name, in: allowed.names) {
                    message += " (did you mean '\(suggestion)'?)"
                }
                message += "; its attributes are \(Suggestions.quotedList(allowed.names))"
                report(element, message)
            }
        }
        return AttributeValues(
            tree: tree, first: Int32(range.lowerBound), count: Int32(range.count), allowed: allowed.mask)
    }

    /// A required attribute's value, or `nil` after reporting it missing or empty.
    mutating func required(_ name: SCXMLName, _ values: AttributeValues, _ element: Element) -> String? {
        guard let value = values[name] else {
            report(element, "<\(tree.localName(element))> is missing the required attribute '\(name.text)'")
            return nil
        }
        guard !value.isBlank else {
            report(element, "<\(tree.localName(element))> has an empty '\(name.text)' attribute; give it a value")
            return nil
        }
        return value
    }

    /// A pair such as `event`/`eventexpr`, of which at most one may be present.
    mutating func valueSource(
        _ literal: SCXMLName, _ expression: SCXMLName, _ values: AttributeValues, _ element: Element
    ) -> SCXMLValueSource? {
        switch (values[literal], values[expression]) {
        case (let value?, _?):
            reportBoth(literal.text, expression.text, element)
            return .literal(value)
        case (let value?, nil): return .literal(value)
        case (nil, let value?): return .expression(value)
        case (nil, nil): return nil
        }
    }

    /// The `id`/`idlocation` pair of `<send>` and `<invoke>`.
    mutating func idSource(_ values: AttributeValues, _ element: Element) -> SCXMLIDSource? {
        switch (values[.id], values[.idlocation]) {
        case (let value?, _?):
            reportBoth("id", "idlocation", element)
            return .literal(value)
        case (let value?, nil): return .literal(value)
        case (nil, let value?): return .location(value)
        case (nil, nil): return nil
        }
    }

    mutating func reportBoth(_ first: String, _ second: String, _ element: Element) {
        report(element, "<\(tree.localName(element))> cannot have both '\(first)' and '\(second)'; use one of them")
    }

    /// `value.containsWhitespace`, without a Character walk for short ASCII values.
    static func containsWhitespace(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if isASCIIWhitespace(byte) { return true }
            }
            return false
        } ?? value.containsWhitespace
    }

    /// A whitespace-separated list (`target`, `event`, `initial`, `namelist`).
    static func tokens(_ value: String?) -> [String] {
        guard let value else { return [] }
        // ASCII without "\r" (so no "\r\n" cluster): every separator character is one byte, and a
        // value without separators (nearly all of them) is its own single token.
        var separators = false
        for byte in value.utf8 {
            if byte >= 0x80 || byte == 0x0D {
                return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                    .map(String.init)
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A { separators = true }
        }
        if !separators { return value.isEmpty ? [] : [value] }
        return value.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A }).map { String(Substring($0)) }
    }

    // MARK: - Children

    /// Pushes the element's children in the SCXML namespace on the child stack and returns where
    /// they are; the caller pops them with ``pop(_:)``. Reports text (SCXML elements other than
    /// those with data content hold only elements) and elements without a namespace; elements in
    /// other namespaces are extensions and are skipped.
    mutating func scxmlChildren(of element: Element) -> Range<Int> {
        let start = childStack.count
        var reportedText = false
        var child = tree.nodes[Int(element)].firstChild
        while child >= 0 {
            switch tree.nodes[Int(child)].kind {
            case .text, .cdata:
                if !reportedText && !tree.isBlank(child) {
                    reportedText = true
                    report(
                        element,
                        "unexpected text '\(Suggestions.snippet(tree.content(child)))' inside <\(tree.localName(element))>; "
                            + "only elements are allowed here")
                }
            case .element:
                if tree.isSCXML(child) {
                    childStack.append(child)
                } else if tree.hasNoNamespace(child) {
                    report(
                        child,
                        "<\(tree.localName(child))> has no namespace; SCXML elements belong in the namespace "
                            + "'\(SCXMLDocument.namespace)' and extension elements in a namespace of their own")
                }
            case .comment, .processingInstruction:
                break
            }
            child = tree.nodes[Int(child)].nextSibling
        }
        return start..<childStack.count
    }

    /// Pops children pushed by ``scxmlChildren(of:)``.
    @inline(__always)
    mutating func pop(_ children: Range<Int>) {
        childStack.removeLast(children.count)
    }

    @inline(__always)
    func child(_ index: Int) -> Element { childStack[index] }

    /// Reports an SCXML element that is not allowed where it is.
    mutating func misplaced(_ child: Element, in parent: Element, allowed list: SCXMLNameList) {
        let allowed = list.names
        let name = tree.localName(child)
        let parentName = tree.localName(parent)
        if !Self.knownElements.contains(name) {
            var message = "<\(name)> is not an SCXML element"
            if let suggestion = Suggestions.closest(to: name, in: allowed.isEmpty ? Array(Self.knownElements) : allowed) {
                message += " (did you mean <\(suggestion)>?)"
            }
            message +=
                allowed.isEmpty
                ? "; <\(parentName)> cannot contain elements"
                : "; <\(parentName)> may contain \(Suggestions.elementList(allowed))"
            report(child, message)
        } else if name == "history" {
            report(child, "<history> must be a child of <state> or <parallel>, not <\(parentName)>")
        } else if name == "else" || name == "elseif" {
            report(child, "<\(name)> must be a child of <if>, not <\(parentName)>")
        } else if name == "scxml" {
            report(
                child,
                "<scxml> can only be the root element, or the single child of an <invoke>'s <content>; "
                    + "it cannot be inside <\(parentName)>")
        } else if allowed.isEmpty {
            report(child, "<\(parentName)> cannot contain elements; remove <\(name)>")
        } else if Self.executableElements.contains(name) && ["scxml", "state", "parallel", "final"].contains(parentName) {
            report(
                child,
                "<\(name)> is not allowed directly inside <\(parentName)>; executable content belongs in "
                    + "<onentry>, <onexit> or <transition>")
        } else if list.mask == Self.executableContent.mask {
            report(
                child,
                "<\(name)> is not allowed inside <\(parentName)>; expected executable content: "
                    + Suggestions.elementList(allowed))
        } else {
            report(
                child,
                "<\(name)> is not allowed inside <\(parentName)>; allowed children are \(Suggestions.elementList(allowed))")
        }
    }

    /// Reports a second occurrence of a child that may occur only once.
    mutating func once(_ child: Element, in parent: Element, seen: inout Bool) -> Bool {
        if seen {
            report(child, "\(describe(parent)) can have only one <\(tree.localName(child))>")
            return false
        }
        seen = true
        return true
    }

    /// Reports any children of an element that must be empty.
    mutating func expectNoChildren(_ element: Element) {
        let children = scxmlChildren(of: element)
        for index in children { misplaced(child(index), in: element, allowed: Self.noNames) }
        pop(children)
    }

    /// Inline content: text, or XML (serialized with the namespaces in scope). `nil` when there is
    /// nothing but whitespace and comments.
    func inlineContent(of element: Element) -> SCXMLInlineContent? {
        if tree.hasElementChildren(element) { return .markup(XMLSerializer.serializeChildren(of: element, in: tree)) }
        if tree.isTextBlank(element) { return nil }
        return .text(tree.text(element))
    }

    // MARK: - Document and states

    mutating func buildDocument(_ element: Element) -> SCXMLDocument {
        let values = attributes(of: element, allowed: Self.documentAttributes)
        let version = values[.version]
        let initial = values[.initial]
        var document = SCXMLDocument(
            sourceLocation: location(element), name: values[.name], version: version ?? "1.0",
            initial: Self.tokens(initial), datamodel: values[.datamodel])
        if let version {
            if version != "1.0" {
                report(element, "<scxml> has version '\(version)'; SCXML 1.0 documents must have version=\"1.0\"")
            }
        } else {
            report(element, "<scxml> is missing the required attribute 'version'; add version=\"1.0\"")
        }
        if let binding = values[.binding] {
            if let value = SCXMLBinding(rawValue: binding) {
                document.binding = value
            } else {
                report(element, "<scxml> has binding '\(binding)'; expected 'early' or 'late'")
            }
        }
        if initial != nil && document.initial.isEmpty {
            report(element, "<scxml> has an empty 'initial' attribute; name a state or remove the attribute")
        }
        var seenDatamodel = false
        var seenScript = false
        let children = scxmlChildren(of: element)
        document.states.reserveCapacity(children.count)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .state, .parallel, .final:
                document.states.append(buildState(child))
            case .datamodel:
                if once(child, in: element, seen: &seenDatamodel) {
                    document.datamodelElement = buildDataModel(child)
                }
            case .script:
                let script = buildScript(child)
                if once(child, in: element, seen: &seenScript) { document.script = script }
            default:
                misplaced(child, in: element, allowed: Self.documentChildren)
            }
        }
        pop(children)
        return document
    }

    mutating func buildState(_ element: Element) -> SCXMLState {
        let kind: SCXMLState.Kind
        switch tree.code(element) {
        case .parallel: kind = .parallel
        case .final: kind = .final
        case .history: kind = .history
        default: kind = .state
        }
        stateCount += 1
        if stateCount == limits.maxStates + 1 {
            report(
                element,
                "the document has more than \(limits.maxStates) states, the limit "
                    + "(SCXMLParser.Limits.maxStates); split the document or raise the limit")
        }
        let allowedAttributes: SCXMLNameList
        let allowedChildren: SCXMLNameList
        switch kind {
        case .state:
            allowedAttributes = Self.stateAttributes
            allowedChildren = Self.stateChildren
        case .parallel:
            allowedAttributes = Self.parallelAttributes
            allowedChildren = Self.parallelChildren
        case .final:
            allowedAttributes = Self.finalAttributes
            allowedChildren = Self.finalChildren
        case .history:
            allowedAttributes = Self.historyAttributes
            allowedChildren = Self.historyChildren
        }
        let values = attributes(of: element, allowed: allowedAttributes)
        let id = values[.id]
        let initial = tokens(values, .initial)
        var state = SCXMLState(
            kind: kind, id: id ?? "", isGeneratedID: id == nil, sourceLocation: location(element),
            initial: initial.tokens)
        if let id, id.isEmpty || Self.containsWhitespace(id) {
            report(element, "<\(tree.localName(element))> has the id '\(id)'; a state id must be non-empty and contain no whitespace")
        }
        if initial.present && state.initial.isEmpty {
            report(element, "\(describe(element)) has an empty 'initial' attribute; name a child state or remove the attribute")
        }
        if kind == .history {
            state.historyType = .shallow
            if let type = values[.type] {
                if let value = SCXMLHistoryType(rawValue: type) {
                    state.historyType = value
                } else {
                    report(element, "<history> has type '\(type)'; expected 'shallow' or 'deep'")
                }
            }
        }

        var seenInitial = false
        var seenDatamodel = false
        var seenDonedata = false
        var transitionCount = 0
        let children = scxmlChildren(of: element)
        if children.count > 1 {
            // Most children are transitions or states: size those arrays once.
            var transitions = 0
            var states = 0
            for index in children {
                switch tree.code(child(index)) {
                case .transition: transitions += 1
                case .state, .parallel, .final, .history: states += 1
                default: break
                }
            }
            if transitions > 1 && kind != .history { state.transitions.reserveCapacity(transitions) }
            if states > 1 { state.children.reserveCapacity(states) }
        }
        for index in children {
            let child = child(index)
            let name = tree.code(child)
            guard allowedChildren.contains(name) else {
                misplaced(child, in: element, allowed: allowedChildren)
                continue
            }
            switch name {
            case .onentry:
                state.onEntry.append(buildBlock(child))
            case .onexit:
                state.onExit.append(buildBlock(child))
            case .transition:
                transitionCount += 1
                let role: TransitionRole = kind == .history ? .history : .state
                if kind != .history || transitionCount == 1 {
                    state.transitions.append(buildTransition(child, role: role))
                } else {
                    _ = buildTransition(child, role: role)
                }
            case .initial:
                let initial = buildInitial(child)
                if once(child, in: element, seen: &seenInitial) { state.initialElement = initial }
            case .state, .parallel, .final, .history:
                state.children.append(buildState(child))
            case .datamodel:
                let datamodel = buildDataModel(child)
                if once(child, in: element, seen: &seenDatamodel) { state.datamodelElement = datamodel }
            case .invoke:
                state.invokes.append(buildInvoke(child))
            case .donedata:
                let doneData = buildDoneData(child)
                if once(child, in: element, seen: &seenDonedata) { state.doneData = doneData }
            default:
                misplaced(child, in: element, allowed: allowedChildren)
            }
        }
        pop(children)
        if kind == .history {
            if transitionCount == 0 {
                report(
                    element,
                    "\(describe(element)) needs a <transition> whose target is the default history "
                        + "configuration, used before the parent state has been visited")
            } else if transitionCount > 1 {
                report(
                    element,
                    "\(describe(element)) can have only one <transition> (its default history "
                        + "configuration); found \(transitionCount)")
            }
        }
        return state
    }

    // MARK: - Transitions

    enum TransitionRole {
        case state, initial, history
    }

    @inline(__always)
    mutating func buildTransition(_ element: Element, role: TransitionRole) -> SCXMLTransition {
        let values = attributes(of: element, allowed: Self.transitionAttributes)
        let events = tokens(values, .event)
        let cond = values[.cond]
        let targets = tokens(values, .target).tokens
        var type = SCXMLTransitionType.external
        if let text = values[.type] {
            if let value = SCXMLTransitionType(rawValue: text) {
                type = value
            } else {
                report(element, "<transition> has type '\(text)'; expected 'internal' or 'external'")
            }
        }
        switch role {
        case .state:
            if events.tokens.isEmpty && cond == nil && targets.isEmpty {
                report(element, "<transition> needs at least one of 'event', 'cond' or 'target'")
            }
        case .initial, .history:
            let owner = role == .initial ? "<initial>" : "<history>"
            let purpose =
                role == .initial
                ? "it is taken unconditionally when the parent state is entered"
                : "it gives the default history configuration"
            if events.present {
                report(element, "the <transition> of \(owner) cannot have an 'event' attribute: \(purpose)")
            }
            if cond != nil {
                report(element, "the <transition> of \(owner) cannot have a 'cond' attribute: \(purpose)")
            }
            if targets.isEmpty {
                report(
                    element,
                    "the <transition> of \(owner) needs a 'target' naming the default "
                        + (role == .initial ? "initial state(s)" : "history state(s)"))
            }
        }
        let actions = tree.nodes[Int(element)].firstChild < 0 ? [] : buildActions(in: element)
        return SCXMLTransition(
            sourceLocation: location(element), events: events.tokens, cond: cond, targets: targets, type: type,
            actions: actions)
    }

    mutating func buildInitial(_ element: Element) -> SCXMLInitial? {
        _ = attributes(of: element, allowed: Self.noNames)
        var transitions: [SCXMLTransition] = []
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            if tree.code(child) == .transition {
                transitions.append(buildTransition(child, role: .initial))
            } else {
                misplaced(child, in: element, allowed: Self.transitionChildren)
            }
        }
        pop(children)
        guard let first = transitions.first else {
            report(element, "<initial> needs exactly one <transition> naming the default initial state(s); found none")
            return nil
        }
        if transitions.count > 1 {
            report(element, "<initial> needs exactly one <transition>; found \(transitions.count)")
        }
        return SCXMLInitial(sourceLocation: location(element), transition: first)
    }

    // MARK: - Data

    mutating func buildDataModel(_ element: Element) -> SCXMLDataModel {
        _ = attributes(of: element, allowed: Self.noNames)
        var datamodel = SCXMLDataModel(sourceLocation: location(element))
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            if tree.code(child) == .data {
                if let data = buildData(child) { datamodel.data.append(data) }
            } else {
                misplaced(child, in: element, allowed: Self.dataChildren)
            }
        }
        pop(children)
        return datamodel
    }

    mutating func buildData(_ element: Element) -> SCXMLData? {
        let values = attributes(of: element, allowed: Self.dataAttributes)
        let id = required(.id, values, element)
        let inline = inlineContent(of: element)
        var sources: [String] = []
        if values[.expr] != nil { sources.append("'expr'") }
        if values[.src] != nil { sources.append("'src'") }
        if inline != nil { sources.append("inline content") }
        if sources.count > 1 {
            report(
                element,
                "\(describe(element)) can have only one of 'expr', 'src' or inline content; found "
                    + sources.joined(separator: " and "))
        }
        guard let id else { return nil }
        let value: SCXMLData.Value? =
            if let expr = values[.expr] { .expression(expr) } else if let src = values[.src] { .src(src) } else {
                inline.map { .inline($0) }
            }
        return SCXMLData(sourceLocation: location(element), id: id, value: value)
    }

    mutating func buildContent(_ element: Element, inInvoke: Bool) -> SCXMLContent {
        let values = attributes(of: element, allowed: Self.exprAttributes)
        var inline = inlineContent(of: element)
        if inInvoke, case .markup(let markup)? = inline {
            let elements = tree.elementChildren(element)
            if elements.count == 1, let root = elements.first, tree.code(root) == .scxml,
                tree.isSCXML(root), tree.isTextBlank(element)
            {
                let nested = buildDocument(root)
                inline = .document(nested, markup: markup)
            }
        }
        let expr = values[.expr]
        if expr != nil && inline != nil {
            report(element, "<content> cannot have both an 'expr' attribute and child content; use one of them")
        }
        let value: SCXMLContent.Value? =
            if let expr { .expression(expr) } else { inline.map { .inline($0) } }
        return SCXMLContent(sourceLocation: location(element), value: value)
    }

    mutating func buildParam(_ element: Element) -> SCXMLParam? {
        let values = attributes(of: element, allowed: Self.paramAttributes)
        expectNoChildren(element)
        let name = required(.name, values, element)
        let expr = values[.expr]
        let location = values[.location]
        if expr != nil && location != nil { reportBoth("expr", "location", element) }
        guard let name else { return nil }
        let value: SCXMLParam.Value? =
            if let expr { .expression(expr) } else { location.map { .location($0) } }
        return SCXMLParam(sourceLocation: self.location(element), name: name, value: value)
    }

    mutating func buildDoneData(_ element: Element) -> SCXMLDoneData {
        _ = attributes(of: element, allowed: Self.noNames)
        var doneData = SCXMLDoneData(sourceLocation: location(element))
        var seenContent = false
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .content:
                let content = buildContent(child, inInvoke: false)
                if once(child, in: element, seen: &seenContent) { doneData.content = content }
            case .param:
                if let param = buildParam(child) { doneData.params.append(param) }
            default:
                misplaced(child, in: element, allowed: Self.doneDataChildren)
            }
        }
        pop(children)
        if doneData.content != nil && !doneData.params.isEmpty {
            report(element, "<donedata> cannot have both a <content> child and <param> children; use one of them")
        }
        return doneData
    }

    // MARK: - Invoke

    mutating func buildInvoke(_ element: Element) -> SCXMLInvoke {
        let values = attributes(of: element, allowed: Self.invokeAttributes)
        var invoke = SCXMLInvoke(
            sourceLocation: location(element), type: valueSource(.type, .typeexpr, values, element),
            src: valueSource(.src, .srcexpr, values, element), id: idSource(values, element),
            namelist: Self.tokens(values[.namelist]))
        if let autoforward = values[.autoforward] {
            switch autoforward {
            case "true": invoke.autoforward = true
            case "false": invoke.autoforward = false
            default: report(element, "<invoke> has autoforward '\(autoforward)'; expected 'true' or 'false'")
            }
        }
        var seenContent = false
        var seenFinalize = false
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .param:
                if let param = buildParam(child) { invoke.params.append(param) }
            case .content:
                let content = buildContent(child, inInvoke: true)
                if once(child, in: element, seen: &seenContent) { invoke.content = content }
            case .finalize:
                let block = buildBlock(child)
                if once(child, in: element, seen: &seenFinalize) { invoke.finalize = block }
            default:
                misplaced(child, in: element, allowed: Self.invokeChildren)
            }
        }
        pop(children)
        if invoke.content != nil, invoke.src != nil {
            let attribute = values.has(.src) ? "src" : "srcexpr"
            report(element, "<invoke> cannot have both '\(attribute)' and a <content> child; use one of them")
        }
        if !invoke.namelist.isEmpty && !invoke.params.isEmpty {
            report(element, "<invoke> cannot have both a 'namelist' attribute and <param> children; use one of them")
        }
        return invoke
    }

    // MARK: - Executable content

    mutating func buildBlock(_ element: Element) -> SCXMLExecutableBlock {
        _ = attributes(of: element, allowed: Self.noNames)
        return SCXMLExecutableBlock(sourceLocation: location(element), actions: buildActions(in: element))
    }

    /// The executable content inside `container`.
    mutating func buildActions(in container: Element) -> [SCXMLExecutable] {
        var actions: [SCXMLExecutable] = []
        let children = scxmlChildren(of: container)
        for index in children {
            if let action = buildAction(child(index), in: container) { actions.append(action) }
        }
        pop(children)
        return actions
    }

    mutating func buildAction(_ element: Element, in parent: Element) -> SCXMLExecutable? {
        switch tree.code(element) {
        case .raise:
            let values = attributes(of: element, allowed: Self.eventAttributes)
            expectNoChildren(element)
            guard let event = required(.event, values, element) else { return nil }
            return .raise(SCXMLRaise(sourceLocation: location(element), event: event))
        case .if:
            return buildIf(element).map { .if($0) }
        case .foreach:
            let values = attributes(of: element, allowed: Self.foreachAttributes)
            let array = required(.array, values, element)
            let item = required(.item, values, element)
            let actions = buildActions(in: element)
            guard let array, let item else { return nil }
            return .foreach(
                SCXMLForeach(
                    sourceLocation: location(element), array: array, item: item, index: values[.index],
                    actions: actions))
        case .log:
            let values = attributes(of: element, allowed: Self.logAttributes)
            expectNoChildren(element)
            return .log(SCXMLLog(sourceLocation: location(element), label: values[.label], expr: values[.expr]))
        case .assign:
            let values = attributes(of: element, allowed: Self.assignAttributes)
            let target = required(.location, values, element)
            let inline = inlineContent(of: element)
            let expr = values[.expr]
            if expr != nil && inline != nil {
                report(element, "<assign> cannot have both an 'expr' attribute and inline content; use one of them")
            }
            guard let target else { return nil }
            let value: SCXMLAssign.Value? =
                if let expr { .expression(expr) } else { inline.map { .inline($0) } }
            return .assign(SCXMLAssign(sourceLocation: location(element), location: target, value: value))
        case .script:
            return .script(buildScript(element))
        case .send:
            return .send(buildSend(element))
        case .cancel:
            let values = attributes(of: element, allowed: Self.cancelAttributes)
            expectNoChildren(element)
            guard let sendID = valueSource(.sendid, .sendidexpr, values, element) else {
                report(element, "<cancel> needs a 'sendid' or 'sendidexpr' attribute naming the <send> to cancel")
                return nil
            }
            return .cancel(SCXMLCancel(sourceLocation: location(element), sendID: sendID))
        default:
            misplaced(element, in: parent, allowed: Self.executableContent)
            return nil
        }
    }

    /// `<if>`: its own branch, then one per `<elseif>` and `<else>`.
    mutating func buildIf(_ element: Element) -> SCXMLIf? {
        let values = attributes(of: element, allowed: Self.condAttributes)
        let cond = required(.cond, values, element)
        var branches = [SCXMLIf.Branch(sourceLocation: location(element), cond: cond)]
        var elseElement: Element? = nil
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            let name = tree.localName(child)
            let code = tree.code(child)
            switch code {
            case .elseif, .else:
                let isElse = code == .else
                let childValues = attributes(of: child, allowed: isElse ? Self.noNames : Self.condAttributes)
                if elseElement != nil {
                    report(
                        child,
                        "<\(name)> cannot come after <else> in the same <if>; <else> must be the last branch")
                }
                if tree.hasElementChildren(child) || !tree.isTextBlank(child) {
                    report(
                        child,
                        "<\(name)> must be empty: the actions of its branch follow it inside the <if>")
                }
                let branchCond = isElse ? nil : required(.cond, childValues, child)
                if isElse { elseElement = child }
                branches.append(SCXMLIf.Branch(sourceLocation: location(child), cond: isElse ? nil : branchCond ?? ""))
            default:
                if let action = buildAction(child, in: element) {
                    branches[branches.count - 1].actions.append(action)
                }
            }
        }
        pop(children)
        guard cond != nil else { return nil }
        return SCXMLIf(sourceLocation: location(element), branches: branches)
    }

    mutating func buildScript(_ element: Element) -> SCXMLScript {
        let values = attributes(of: element, allowed: Self.srcAttributes)
        var child = tree.nodes[Int(element)].firstChild
        while child >= 0 {
            if tree.nodes[Int(child)].kind == .element {
                report(child, "<script> can contain only text (the script code), not <\(tree.localName(child))>")
            }
            child = tree.nodes[Int(child)].nextSibling
        }
        if let src = values[.src] {
            if !tree.isTextBlank(element) {
                report(element, "<script> cannot have both a 'src' attribute and inline code; use one of them")
            }
            return SCXMLScript(sourceLocation: location(element), source: .src(src))
        }
        return SCXMLScript(sourceLocation: location(element), source: .inline(tree.text(element)))
    }

    mutating func buildSend(_ element: Element) -> SCXMLSend {
        let values = attributes(of: element, allowed: Self.sendAttributes)
        var send = SCXMLSend(
            sourceLocation: location(element), event: valueSource(.event, .eventexpr, values, element),
            target: valueSource(.target, .targetexpr, values, element),
            type: valueSource(.type, .typeexpr, values, element), id: idSource(values, element),
            delay: valueSource(.delay, .delayexpr, values, element), namelist: Self.tokens(values[.namelist]))
        if case .literal(let delay)? = send.delay, SCXMLTime.parseDelay(delay) == nil {
            report(
                element,
                "<send> has delay '\(delay)', which is not a CSS2 time; write a number followed by 's' or 'ms', "
                    + "such as '1s', '.5s' or '100ms'")
        }
        if send.delay != nil, case .literal("#_internal")? = send.target {
            report(
                element,
                "<send> cannot have a delay when its target is '#_internal'; remove the delay, or raise the event "
                    + "without a target")
        }
        var seenContent = false
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .param:
                if let param = buildParam(child) { send.params.append(param) }
            case .content:
                let content = buildContent(child, inInvoke: false)
                if once(child, in: element, seen: &seenContent) { send.content = content }
            default:
                misplaced(child, in: element, allowed: Self.sendChildren)
            }
        }
        pop(children)
        if send.content != nil {
            if !send.namelist.isEmpty {
                report(element, "<send> cannot have both a <content> child and a 'namelist' attribute; use one of them")
            }
            if !send.params.isEmpty {
                report(element, "<send> cannot have both a <content> child and <param> children; use one of them")
            }
        }
        if send.event == nil && send.content == nil {
            let usesSCXMLProcessor: Bool
            switch send.type {
            case nil: usesSCXMLProcessor = true
            case .literal(let type)?: usesSCXMLProcessor = type == Self.scxmlEventProcessor
            case .expression?: usesSCXMLProcessor = false
            }
            if usesSCXMLProcessor {
                report(
                    element,
                    "<send> needs an 'event' or 'eventexpr' attribute (or a <content> child) when it uses "
                        + "the SCXML event processor")
            }
        }
        return send
    }
}

/// Single-token arrays by the bytes of their token, so that equal attribute values share one
/// array: one allocation per distinct name instead of one per attribute.
private struct TokenCache {
    // Open addressing; parallel arrays, so a probe reads no array of tokens.
    private var hashes: [UInt64] = []
    private var slots: [Int32] = []
    private var starts: [UnsafePointer<UInt8>] = []
    private var counts: [Int] = []
    private var entryHashes: [UInt64] = []
    private var tokens: [[String]] = []
    private var mask = 0

    /// The array holding the one token `base[0..<count]` (bytes that live as long as the cache)
    /// whose FNV-1a hash is `hash`.
    mutating func tokens(_ base: UnsafePointer<UInt8>, count: Int, hash: UInt64) -> [String] {
        if !slots.isEmpty {
            var index = Int(truncatingIfNeeded: hash >> 32) & mask
            while slots[index] >= 0 {
                let entry = Int(slots[index])
                if hashes[index] == hash && counts[entry] == count && memcmp(starts[entry], base, count) == 0 {
                    return tokens[entry]
                }
                index = (index + 1) & mask
            }
        }
        let value = [String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)]
        insert(hash, base, count, value)
        return value
    }

    private mutating func insert(_ hash: UInt64, _ base: UnsafePointer<UInt8>, _ count: Int, _ value: [String]) {
        if (tokens.count + 1) * 2 > slots.count {
            let capacity = max(256, slots.count * 2)
            hashes = Array(repeating: 0, count: capacity)
            slots = Array(repeating: -1, count: capacity)
            mask = capacity - 1
            for position in tokens.indices {
                var index = Int(truncatingIfNeeded: entryHashes[position] >> 32) & mask
                while slots[index] >= 0 { index = (index + 1) & mask }
                slots[index] = Int32(position)
                hashes[index] = entryHashes[position]
            }
        }
        var index = Int(truncatingIfNeeded: hash >> 32) & mask
        while slots[index] >= 0 { index = (index + 1) & mask }
        slots[index] = Int32(tokens.count)
        hashes[index] = hash
        starts.append(base)
        counts.append(count)
        entryHashes.append(hash)
        tokens.append(value)
    }
}
