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
    var stateCount = 0
    /// The SCXML children of the elements being built, innermost last.
    private var childStack: [Element] = []
    /// The `<test:event>` examples found so far in the document being built (each nested
    /// document keeps its own: ``buildDocument(_:)``).
    var eventExamples: [SCXMLEventExample] = []
    var tokenCache: TokenCache

    init(tree: XMLTree, fileName: String, limits: SCXMLParser.Limits) {
        self.owner = tree
        self.tree = tree.view
        self.fileName = fileName
        self.limits = limits
        // Distinct names and ids: about one attribute in eight in a large chart.
        tokenCache = TokenCache(capacity: max(128, tree.view.attributes.count / 8))
        childStack.reserveCapacity(64)
    }

    // MARK: - Reporting

    @inline(__always)
    func location(_ element: Element) -> SCXMLSourceLocation {
        SCXMLSourceLocation(file: fileName, line: tree.line(element), column: tree.column(element))
    }

    mutating func report(_ element: Element, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location(element), element: tree.localName(element), message: message))
    }

    /// Reports what breaks a rule but has one obvious meaning, which the document is given
    /// (docs/COMPATIBILITY.md); a strict parse makes it an error.
    mutating func warn(_ element: Element, _ message: String) {
        diagnostics.append(SCXMLDiagnostic(location: location(element), element: tree.localName(element), message: message,
                                           severity: .warning))
    }

    /// `<state id='s1'>`, or `<state>` when the element has no id.
    func describe(_ element: Element) -> String {
        let name = tree.localName(element)
        if let id = tree.attribute("id", of: element) {
            return "<\(name) id='\(id)'>"
        }
        return "<\(name)>"
    }


    // MARK: - Children

    /// Pushes the element's children in the SCXML namespace on the child stack and returns where
    /// they are; the caller pops them with ``pop(_:)``. Reports text (SCXML elements other than
    /// those with data content hold only elements) and elements without a namespace; elements in
    /// other namespaces are extensions and are skipped, except that `<test:event>` examples
    /// (``SCXMLEventExample``) are kept for the document.
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
                } else if tree.namespaceURI(child) == SCXMLEventExample.namespace && tree.localName(child) == "event" {
                    eventExamples.append(SCXMLEventExample(name: tree.attribute("name", of: child),
                                                           data: tree.attribute("data", of: child),
                                                           sourceLocation: location(child)))
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
        let code = tree.code(child)
        let parentName = tree.localName(parent)
        let parentCode = tree.code(parent)
        if !code.isElement {
            var message = "<\(name)> is not an SCXML element"
            if let suggestion = Suggestions.closest(to: name, in: allowed.isEmpty ? SCXMLElementRule.elementNames : allowed) {
                message += " (did you mean <\(suggestion)>?)"
            }
            message +=
                allowed.isEmpty
                ? "; <\(parentName)> cannot contain elements"
                : "; <\(parentName)> may contain \(Suggestions.elementList(allowed))"
            report(child, message)
        } else if code == .history {
            report(child, "<history> must be a child of <state> or <parallel>, not <\(parentName)>")
        } else if code == .else || code == .elseif {
            report(child, "<\(name)> must be a child of <if>, not <\(parentName)>")
        } else if code == .scxml {
            report(
                child,
                "<scxml> can only be the root element, or the single child of an <invoke>'s <content>; "
                    + "it cannot be inside <\(parentName)>")
        } else if allowed.isEmpty {
            report(child, "<\(parentName)> cannot contain elements; remove <\(name)>")
        } else if SCXMLElementRule.executableContent.contains(code)
            && (parentCode == .scxml || parentCode.rule.children.contains(.onentry))
        {
            // <scxml> and the states: executable content goes in their <onentry>/<onexit>.
            report(
                child,
                "<\(name)> is not allowed directly inside <\(parentName)>; executable content belongs in "
                    + "<onentry>, <onexit> or <transition>")
        } else if list.mask == SCXMLElementRule.executableContent.mask {
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
        for index in children { misplaced(child(index), in: element, allowed: tree.code(element).rule.children) }
        pop(children)
    }

    /// Inline content: text, or XML (serialized with the namespaces in scope). `nil` when there is
    /// nothing but whitespace and comments.
    func inlineContent(of element: Element) -> SCXMLInlineContent? {
        if tree.hasElementChildren(element) { return .markup(XMLSerializer.serializeChildren(of: element, in: tree)) }
        if tree.isTextBlank(element) { return nil }
        return .text(tree.text(element))
    }
}
