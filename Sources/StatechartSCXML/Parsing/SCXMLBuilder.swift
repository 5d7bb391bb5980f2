// Builds the SCXML document model from the XML tree and reports every structural error: unknown or
// misplaced elements, unknown, missing, invalid or conflicting attributes, and wrong numbers of
// children. Checks that need the whole document (ids, targets, initial states) are in SCXMLValidator.

/// Turns `XMLElement`s into the SCXML model, collecting diagnostics.
struct SCXMLBuilder {
    let fileName: String
    let limits: SCXMLParser.Limits
    private(set) var diagnostics: [SCXMLDiagnostic] = []
    private var stateCount = 0

    init(fileName: String, limits: SCXMLParser.Limits) {
        self.fileName = fileName
        self.limits = limits
    }

    static let executableElements = ["raise", "if", "foreach", "log", "assign", "script", "send", "cancel"]

    /// Every element of SCXML 1.0.
    static let knownElements: Set<String> = [
        "scxml", "state", "parallel", "final", "initial", "history", "transition", "onentry", "onexit",
        "datamodel", "data", "donedata", "content", "param", "invoke", "finalize", "raise", "if", "elseif",
        "else", "foreach", "log", "assign", "script", "send", "cancel",
    ]

    static let scxmlEventProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    // MARK: - Reporting

    func location(_ element: XMLElement) -> SCXMLSourceLocation {
        SCXMLSourceLocation(file: fileName, line: element.line, column: element.column)
    }

    mutating func report(_ element: XMLElement, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location(element), element: element.localName, message: message))
    }

    /// `<state id='s1'>`, or `<state>` when the element has no id.
    static func describe(_ element: XMLElement) -> String {
        if let id = element.attributes.first(where: { $0.namespaceURI == nil && $0.localName == "id" })?.value {
            return "<\(element.localName) id='\(id)'>"
        }
        return "<\(element.localName)>"
    }

    // MARK: - Attributes

    /// An element's SCXML attributes by name. Elements have a handful, so a list searched by name
    /// costs less than a dictionary built per element.
    struct AttributeValues {
        private var entries: [(name: String, value: String)] = []

        subscript(name: String) -> String? {
            get {
                for entry in entries where entry.name == name { return entry.value }
                return nil
            }
            set {
                if let index = entries.firstIndex(where: { $0.name == name }) {
                    if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
                } else if let newValue {
                    entries.append((name, newValue))
                }
            }
        }
    }

    /// The element's attributes without a namespace, reporting those SCXML does not define for it.
    /// Attributes in other namespaces (`xml:lang`, extensions) are ignored.
    mutating func attributes(of element: XMLElement, allowed: [String]) -> AttributeValues {
        var values = AttributeValues()
        for attribute in element.attributes where attribute.namespaceURI == nil {
            let name = attribute.localName
            if allowed.contains(name) {
                values[name] = attribute.value
            } else if element.localName == "parallel" && name == "initial" {
                report(
                    element,
                    "<parallel> cannot have an 'initial' attribute: all children of a parallel state are entered "
                        + "together; remove it")
            } else if allowed.isEmpty {
                report(element, "<\(element.localName)> takes no attributes; remove '\(name)'")
            } else {
                var message = "<\(element.localName)> has no attribute '\(name)'"
                if let suggestion = Suggestions.closest(to: name, in: allowed) {
                    message += " (did you mean '\(suggestion)'?)"
                }
                message += "; its attributes are \(Suggestions.quotedList(allowed))"
                report(element, message)
            }
        }
        return values
    }

    /// A required attribute's value, or `nil` after reporting it missing or empty.
    mutating func required(_ name: String, _ values: AttributeValues, _ element: XMLElement) -> String? {
        guard let value = values[name] else {
            report(element, "<\(element.localName)> is missing the required attribute '\(name)'")
            return nil
        }
        guard !value.isBlank else {
            report(element, "<\(element.localName)> has an empty '\(name)' attribute; give it a value")
            return nil
        }
        return value
    }

    /// A pair such as `event`/`eventexpr`, of which at most one may be present.
    mutating func valueSource(
        _ literal: String, _ expression: String, _ values: AttributeValues, _ element: XMLElement
    ) -> SCXMLValueSource? {
        switch (values[literal], values[expression]) {
        case (let value?, _?):
            reportBoth(literal, expression, element)
            return .literal(value)
        case (let value?, nil): return .literal(value)
        case (nil, let value?): return .expression(value)
        case (nil, nil): return nil
        }
    }

    /// The `id`/`idlocation` pair of `<send>` and `<invoke>`.
    mutating func idSource(_ values: AttributeValues, _ element: XMLElement) -> SCXMLIDSource? {
        switch (values["id"], values["idlocation"]) {
        case (let value?, _?):
            reportBoth("id", "idlocation", element)
            return .literal(value)
        case (let value?, nil): return .literal(value)
        case (nil, let value?): return .location(value)
        case (nil, nil): return nil
        }
    }

    mutating func reportBoth(_ first: String, _ second: String, _ element: XMLElement) {
        report(element, "<\(element.localName)> cannot have both '\(first)' and '\(second)'; use one of them")
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

    /// The element's children in the SCXML namespace. Reports text (SCXML elements other than those
    /// with data content hold only elements) and elements without a namespace; elements in other
    /// namespaces are extensions and are skipped.
    mutating func scxmlChildren(of element: XMLElement) -> [XMLElement] {
        var result: [XMLElement] = []
        var reportedText = false
        for child in element.children {
            switch child {
            case .text(let text):
                if !reportedText && !text.isBlank {
                    reportedText = true
                    report(
                        element,
                        "unexpected text '\(Suggestions.snippet(text))' inside <\(element.localName)>; "
                            + "only elements are allowed here")
                }
            case .element(let child):
                if child.namespaceURI == SCXMLDocument.namespace {
                    result.append(child)
                } else if child.namespaceURI == nil {
                    report(
                        child,
                        "<\(child.localName)> has no namespace; SCXML elements belong in the namespace "
                            + "'\(SCXMLDocument.namespace)' and extension elements in a namespace of their own")
                }
            case .comment, .processingInstruction:
                break
            }
        }
        return result
    }

    /// Reports an SCXML element that is not allowed where it is.
    mutating func misplaced(_ child: XMLElement, in parent: XMLElement, allowed: [String]) {
        let name = child.localName
        let parentName = parent.localName
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
        } else if allowed == Self.executableElements {
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
    mutating func once(_ child: XMLElement, in parent: XMLElement, seen: inout Bool) -> Bool {
        if seen {
            report(child, "\(Self.describe(parent)) can have only one <\(child.localName)>")
            return false
        }
        seen = true
        return true
    }

    /// Reports any children of an element that must be empty.
    mutating func expectNoChildren(_ element: XMLElement) {
        for child in scxmlChildren(of: element) { misplaced(child, in: element, allowed: []) }
    }

    /// Inline content: text, or XML (serialized with the namespaces in scope). `nil` when there is
    /// nothing but whitespace and comments.
    func inlineContent(of element: XMLElement, scope: XMLNamespaceScope) -> SCXMLInlineContent? {
        let hasElements = element.children.contains { if case .element = $0 { return true } else { return false } }
        if hasElements { return .markup(XMLSerializer.serializeChildren(of: element, scope: scope)) }
        let text = element.text
        return text.isBlank ? nil : .text(text)
    }

    // MARK: - Document and states
    //
    // Every build function takes the namespace scope of the element's parent.

    mutating func buildDocument(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLDocument {
        let inner = scope.entering(element)
        let values = attributes(of: element, allowed: ["initial", "name", "version", "datamodel", "binding"])
        var document = SCXMLDocument(
            sourceLocation: location(element), name: values["name"], version: values["version"] ?? "1.0",
            initial: Self.tokens(values["initial"]), datamodel: values["datamodel"])
        if let version = values["version"] {
            if version != "1.0" {
                report(element, "<scxml> has version '\(version)'; SCXML 1.0 documents must have version=\"1.0\"")
            }
        } else {
            report(element, "<scxml> is missing the required attribute 'version'; add version=\"1.0\"")
        }
        if let binding = values["binding"] {
            if let value = SCXMLBinding(rawValue: binding) {
                document.binding = value
            } else {
                report(element, "<scxml> has binding '\(binding)'; expected 'early' or 'late'")
            }
        }
        if values["initial"] != nil && document.initial.isEmpty {
            report(element, "<scxml> has an empty 'initial' attribute; name a state or remove the attribute")
        }
        let allowed = ["state", "parallel", "final", "datamodel", "script"]
        var seenDatamodel = false
        var seenScript = false
        for child in scxmlChildren(of: element) {
            switch child.localName {
            case "state", "parallel", "final":
                document.states.append(buildState(child, scope: inner))
            case "datamodel":
                if once(child, in: element, seen: &seenDatamodel) {
                    document.datamodelElement = buildDataModel(child, scope: inner)
                }
            case "script":
                let script = buildScript(child)
                if once(child, in: element, seen: &seenScript) { document.script = script }
            default:
                misplaced(child, in: element, allowed: allowed)
            }
        }
        return document
    }

    mutating func buildState(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLState {
        let inner = scope.entering(element)
        let kind = SCXMLState.Kind(rawValue: element.localName) ?? .state
        stateCount += 1
        if stateCount == limits.maxStates + 1 {
            report(
                element,
                "the document has more than \(limits.maxStates) states, the limit "
                    + "(SCXMLParser.Limits.maxStates); split the document or raise the limit")
        }
        let allowedAttributes: [String]
        let allowedChildren: [String]
        switch kind {
        case .state:
            allowedAttributes = ["id", "initial"]
            allowedChildren = [
                "onentry", "onexit", "transition", "initial", "state", "parallel", "final", "history", "datamodel",
                "invoke",
            ]
        case .parallel:
            allowedAttributes = ["id"]
            allowedChildren = [
                "onentry", "onexit", "transition", "state", "parallel", "history", "datamodel", "invoke",
            ]
        case .final:
            allowedAttributes = ["id"]
            allowedChildren = ["onentry", "onexit", "donedata"]
        case .history:
            allowedAttributes = ["id", "type"]
            allowedChildren = ["transition"]
        }
        let values = attributes(of: element, allowed: allowedAttributes)
        var state = SCXMLState(
            kind: kind, id: values["id"] ?? "", isGeneratedID: values["id"] == nil, sourceLocation: location(element),
            initial: Self.tokens(values["initial"]))
        if let id = values["id"], id.isEmpty || id.containsWhitespace {
            report(element, "<\(element.localName)> has the id '\(id)'; a state id must be non-empty and contain no whitespace")
        }
        if values["initial"] != nil && state.initial.isEmpty {
            report(element, "\(Self.describe(element)) has an empty 'initial' attribute; name a child state or remove the attribute")
        }
        if kind == .history {
            state.historyType = .shallow
            if let type = values["type"] {
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
        for child in scxmlChildren(of: element) {
            guard allowedChildren.contains(child.localName) else {
                misplaced(child, in: element, allowed: allowedChildren)
                continue
            }
            switch child.localName {
            case "onentry":
                state.onEntry.append(buildBlock(child, scope: inner))
            case "onexit":
                state.onExit.append(buildBlock(child, scope: inner))
            case "transition":
                transitionCount += 1
                let role: TransitionRole = kind == .history ? .history : .state
                let transition = buildTransition(child, scope: inner, role: role)
                if kind != .history || transitionCount == 1 { state.transitions.append(transition) }
            case "initial":
                let initial = buildInitial(child, scope: inner)
                if once(child, in: element, seen: &seenInitial) { state.initialElement = initial }
            case "state", "parallel", "final", "history":
                state.children.append(buildState(child, scope: inner))
            case "datamodel":
                let datamodel = buildDataModel(child, scope: inner)
                if once(child, in: element, seen: &seenDatamodel) { state.datamodelElement = datamodel }
            case "invoke":
                state.invokes.append(buildInvoke(child, scope: inner))
            case "donedata":
                let doneData = buildDoneData(child, scope: inner)
                if once(child, in: element, seen: &seenDonedata) { state.doneData = doneData }
            default:
                misplaced(child, in: element, allowed: allowedChildren)
            }
        }
        if kind == .history {
            if transitionCount == 0 {
                report(
                    element,
                    "\(Self.describe(element)) needs a <transition> whose target is the default history "
                        + "configuration, used before the parent state has been visited")
            } else if transitionCount > 1 {
                report(
                    element,
                    "\(Self.describe(element)) can have only one <transition> (its default history "
                        + "configuration); found \(transitionCount)")
            }
        }
        return state
    }

    // MARK: - Transitions

    enum TransitionRole {
        case state, initial, history
    }

    mutating func buildTransition(_ element: XMLElement, scope: XMLNamespaceScope, role: TransitionRole) -> SCXMLTransition {
        let inner = scope.entering(element)
        let values = attributes(of: element, allowed: ["event", "cond", "target", "type"])
        var transition = SCXMLTransition(
            sourceLocation: location(element), events: Self.tokens(values["event"]), cond: values["cond"],
            targets: Self.tokens(values["target"]))
        if let type = values["type"] {
            if let value = SCXMLTransitionType(rawValue: type) {
                transition.type = value
            } else {
                report(element, "<transition> has type '\(type)'; expected 'internal' or 'external'")
            }
        }
        switch role {
        case .state:
            if transition.events.isEmpty && transition.cond == nil && transition.targets.isEmpty {
                report(element, "<transition> needs at least one of 'event', 'cond' or 'target'")
            }
        case .initial, .history:
            let owner = role == .initial ? "<initial>" : "<history>"
            let purpose =
                role == .initial
                ? "it is taken unconditionally when the parent state is entered"
                : "it gives the default history configuration"
            if values["event"] != nil {
                report(element, "the <transition> of \(owner) cannot have an 'event' attribute: \(purpose)")
            }
            if values["cond"] != nil {
                report(element, "the <transition> of \(owner) cannot have a 'cond' attribute: \(purpose)")
            }
            if transition.targets.isEmpty {
                report(
                    element,
                    "the <transition> of \(owner) needs a 'target' naming the default "
                        + (role == .initial ? "initial state(s)" : "history state(s)"))
            }
        }
        transition.actions = buildActions(in: element, scope: inner)
        return transition
    }

    mutating func buildInitial(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLInitial? {
        let inner = scope.entering(element)
        _ = attributes(of: element, allowed: [])
        var transitions: [SCXMLTransition] = []
        for child in scxmlChildren(of: element) {
            if child.localName == "transition" {
                transitions.append(buildTransition(child, scope: inner, role: .initial))
            } else {
                misplaced(child, in: element, allowed: ["transition"])
            }
        }
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

    mutating func buildDataModel(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLDataModel {
        let inner = scope.entering(element)
        _ = attributes(of: element, allowed: [])
        var datamodel = SCXMLDataModel(sourceLocation: location(element))
        for child in scxmlChildren(of: element) {
            if child.localName == "data" {
                if let data = buildData(child, scope: inner) { datamodel.data.append(data) }
            } else {
                misplaced(child, in: element, allowed: ["data"])
            }
        }
        return datamodel
    }

    mutating func buildData(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLData? {
        let values = attributes(of: element, allowed: ["id", "src", "expr"])
        let id = required("id", values, element)
        let inline = inlineContent(of: element, scope: scope)
        var sources: [String] = []
        if values["expr"] != nil { sources.append("'expr'") }
        if values["src"] != nil { sources.append("'src'") }
        if inline != nil { sources.append("inline content") }
        if sources.count > 1 {
            report(
                element,
                "\(Self.describe(element)) can have only one of 'expr', 'src' or inline content; found "
                    + sources.joined(separator: " and "))
        }
        guard let id else { return nil }
        let value: SCXMLData.Value? =
            if let expr = values["expr"] { .expression(expr) } else if let src = values["src"] { .src(src) } else {
                inline.map { .inline($0) }
            }
        return SCXMLData(sourceLocation: location(element), id: id, value: value)
    }

    mutating func buildContent(_ element: XMLElement, scope: XMLNamespaceScope, inInvoke: Bool) -> SCXMLContent {
        let values = attributes(of: element, allowed: ["expr"])
        var inline = inlineContent(of: element, scope: scope)
        if inInvoke, case .markup(let markup)? = inline {
            let elements = element.elementChildren
            if elements.count == 1, let root = elements.first, root.localName == "scxml",
                root.namespaceURI == SCXMLDocument.namespace, element.text.isBlank
            {
                let nested = buildDocument(root, scope: scope.entering(element))
                inline = .document(nested, markup: markup)
            }
        }
        if values["expr"] != nil && inline != nil {
            report(element, "<content> cannot have both an 'expr' attribute and child content; use one of them")
        }
        let value: SCXMLContent.Value? =
            if let expr = values["expr"] { .expression(expr) } else { inline.map { .inline($0) } }
        return SCXMLContent(sourceLocation: location(element), value: value)
    }

    mutating func buildParam(_ element: XMLElement) -> SCXMLParam? {
        let values = attributes(of: element, allowed: ["name", "expr", "location"])
        expectNoChildren(element)
        let name = required("name", values, element)
        if values["expr"] != nil && values["location"] != nil { reportBoth("expr", "location", element) }
        guard let name else { return nil }
        let value: SCXMLParam.Value? =
            if let expr = values["expr"] { .expression(expr) } else { values["location"].map { .location($0) } }
        return SCXMLParam(sourceLocation: location(element), name: name, value: value)
    }

    mutating func buildDoneData(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLDoneData {
        let inner = scope.entering(element)
        _ = attributes(of: element, allowed: [])
        var doneData = SCXMLDoneData(sourceLocation: location(element))
        var seenContent = false
        for child in scxmlChildren(of: element) {
            switch child.localName {
            case "content":
                let content = buildContent(child, scope: inner, inInvoke: false)
                if once(child, in: element, seen: &seenContent) { doneData.content = content }
            case "param":
                if let param = buildParam(child) { doneData.params.append(param) }
            default:
                misplaced(child, in: element, allowed: ["content", "param"])
            }
        }
        if doneData.content != nil && !doneData.params.isEmpty {
            report(element, "<donedata> cannot have both a <content> child and <param> children; use one of them")
        }
        return doneData
    }

    // MARK: - Invoke

    mutating func buildInvoke(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLInvoke {
        let inner = scope.entering(element)
        let values = attributes(
            of: element,
            allowed: ["type", "typeexpr", "src", "srcexpr", "id", "idlocation", "namelist", "autoforward"])
        var invoke = SCXMLInvoke(
            sourceLocation: location(element), type: valueSource("type", "typeexpr", values, element),
            src: valueSource("src", "srcexpr", values, element), id: idSource(values, element),
            namelist: Self.tokens(values["namelist"]))
        if let autoforward = values["autoforward"] {
            switch autoforward {
            case "true": invoke.autoforward = true
            case "false": invoke.autoforward = false
            default: report(element, "<invoke> has autoforward '\(autoforward)'; expected 'true' or 'false'")
            }
        }
        var seenContent = false
        var seenFinalize = false
        for child in scxmlChildren(of: element) {
            switch child.localName {
            case "param":
                if let param = buildParam(child) { invoke.params.append(param) }
            case "content":
                let content = buildContent(child, scope: inner, inInvoke: true)
                if once(child, in: element, seen: &seenContent) { invoke.content = content }
            case "finalize":
                let block = buildBlock(child, scope: inner)
                if once(child, in: element, seen: &seenFinalize) { invoke.finalize = block }
            default:
                misplaced(child, in: element, allowed: ["param", "finalize", "content"])
            }
        }
        if invoke.content != nil, invoke.src != nil {
            let attribute = values["src"] != nil ? "src" : "srcexpr"
            report(element, "<invoke> cannot have both '\(attribute)' and a <content> child; use one of them")
        }
        if !invoke.namelist.isEmpty && !invoke.params.isEmpty {
            report(element, "<invoke> cannot have both a 'namelist' attribute and <param> children; use one of them")
        }
        return invoke
    }

    // MARK: - Executable content

    mutating func buildBlock(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLExecutableBlock {
        _ = attributes(of: element, allowed: [])
        return SCXMLExecutableBlock(
            sourceLocation: location(element), actions: buildActions(in: element, scope: scope.entering(element)))
    }

    /// The executable content inside `container`; `scope` includes the container's declarations.
    mutating func buildActions(in container: XMLElement, scope: XMLNamespaceScope) -> [SCXMLExecutable] {
        var actions: [SCXMLExecutable] = []
        for child in scxmlChildren(of: container) {
            if let action = buildAction(child, in: container, scope: scope) { actions.append(action) }
        }
        return actions
    }

    mutating func buildAction(_ element: XMLElement, in parent: XMLElement, scope: XMLNamespaceScope) -> SCXMLExecutable? {
        let inner = scope.entering(element)
        switch element.localName {
        case "raise":
            let values = attributes(of: element, allowed: ["event"])
            expectNoChildren(element)
            guard let event = required("event", values, element) else { return nil }
            return .raise(SCXMLRaise(sourceLocation: location(element), event: event))
        case "if":
            return buildIf(element, scope: inner).map { .if($0) }
        case "foreach":
            let values = attributes(of: element, allowed: ["array", "item", "index"])
            let array = required("array", values, element)
            let item = required("item", values, element)
            let actions = buildActions(in: element, scope: inner)
            guard let array, let item else { return nil }
            return .foreach(
                SCXMLForeach(
                    sourceLocation: location(element), array: array, item: item, index: values["index"],
                    actions: actions))
        case "log":
            let values = attributes(of: element, allowed: ["label", "expr"])
            expectNoChildren(element)
            return .log(SCXMLLog(sourceLocation: location(element), label: values["label"], expr: values["expr"]))
        case "assign":
            let values = attributes(of: element, allowed: ["location", "expr"])
            let target = required("location", values, element)
            let inline = inlineContent(of: element, scope: scope)
            if values["expr"] != nil && inline != nil {
                report(element, "<assign> cannot have both an 'expr' attribute and inline content; use one of them")
            }
            guard let target else { return nil }
            let value: SCXMLAssign.Value? =
                if let expr = values["expr"] { .expression(expr) } else { inline.map { .inline($0) } }
            return .assign(SCXMLAssign(sourceLocation: location(element), location: target, value: value))
        case "script":
            return .script(buildScript(element))
        case "send":
            return .send(buildSend(element, scope: scope))
        case "cancel":
            let values = attributes(of: element, allowed: ["sendid", "sendidexpr"])
            expectNoChildren(element)
            guard let sendID = valueSource("sendid", "sendidexpr", values, element) else {
                report(element, "<cancel> needs a 'sendid' or 'sendidexpr' attribute naming the <send> to cancel")
                return nil
            }
            return .cancel(SCXMLCancel(sourceLocation: location(element), sendID: sendID))
        default:
            misplaced(element, in: parent, allowed: Self.executableElements)
            return nil
        }
    }

    /// `<if>`: its own branch, then one per `<elseif>` and `<else>`; `scope` includes the `<if>`'s declarations.
    mutating func buildIf(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLIf? {
        let values = attributes(of: element, allowed: ["cond"])
        let cond = required("cond", values, element)
        var branches = [SCXMLIf.Branch(sourceLocation: location(element), cond: cond)]
        var elseElement: XMLElement? = nil
        for child in scxmlChildren(of: element) {
            switch child.localName {
            case "elseif", "else":
                let isElse = child.localName == "else"
                let childValues = attributes(of: child, allowed: isElse ? [] : ["cond"])
                if elseElement != nil {
                    report(
                        child,
                        "<\(child.localName)> cannot come after <else> in the same <if>; <else> must be the last branch")
                }
                if !child.elementChildren.isEmpty || !child.text.isBlank {
                    report(
                        child,
                        "<\(child.localName)> must be empty: the actions of its branch follow it inside the <if>")
                }
                let branchCond = isElse ? nil : required("cond", childValues, child)
                if isElse { elseElement = child }
                branches.append(SCXMLIf.Branch(sourceLocation: location(child), cond: isElse ? nil : branchCond ?? ""))
            default:
                if let action = buildAction(child, in: element, scope: scope) {
                    branches[branches.count - 1].actions.append(action)
                }
            }
        }
        guard cond != nil else { return nil }
        return SCXMLIf(sourceLocation: location(element), branches: branches)
    }

    mutating func buildScript(_ element: XMLElement) -> SCXMLScript {
        let values = attributes(of: element, allowed: ["src"])
        for child in element.elementChildren {
            report(child, "<script> can contain only text (the script code), not <\(child.localName)>")
        }
        let text = element.text
        if let src = values["src"] {
            if !text.isBlank {
                report(element, "<script> cannot have both a 'src' attribute and inline code; use one of them")
            }
            return SCXMLScript(sourceLocation: location(element), source: .src(src))
        }
        return SCXMLScript(sourceLocation: location(element), source: .inline(text))
    }

    mutating func buildSend(_ element: XMLElement, scope: XMLNamespaceScope) -> SCXMLSend {
        let inner = scope.entering(element)
        let values = attributes(
            of: element,
            allowed: [
                "event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay",
                "delayexpr", "namelist",
            ])
        var send = SCXMLSend(
            sourceLocation: location(element), event: valueSource("event", "eventexpr", values, element),
            target: valueSource("target", "targetexpr", values, element),
            type: valueSource("type", "typeexpr", values, element), id: idSource(values, element),
            delay: valueSource("delay", "delayexpr", values, element), namelist: Self.tokens(values["namelist"]))
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
        for child in scxmlChildren(of: element) {
            switch child.localName {
            case "param":
                if let param = buildParam(child) { send.params.append(param) }
            case "content":
                let content = buildContent(child, scope: inner, inInvoke: false)
                if once(child, in: element, seen: &seenContent) { send.content = content }
            default:
                misplaced(child, in: element, allowed: ["param", "content"])
            }
        }
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
