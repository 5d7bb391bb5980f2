import Foundation
import Statechart

/// XML carried as data: `<data>` and `<content>` children, `src` files, event payloads. Parses
/// a fragment into a plain tree that datamodels with a DOM (ECMAScript, SCXML B.2.2) turn into
/// their document objects.
public enum SCXMLMarkup {
    /// Parses `markup` (one or more elements, optionally with an XML declaration, text and
    /// comments between them) into a document tree; `nil` when it is not well-formed XML or
    /// holds no element.
    ///
    /// The tree is a `DataValue` shaped like the DOM:
    /// - the document: `{"nodeType": 9, "childNodes": [...]}`;
    /// - an element: `{"nodeType": 1, "tagName", "localName", "prefix", "namespaceURI",
    ///   "attributes": [{"name", "localName", "prefix", "namespaceURI", "value"}],
    ///   "namespaceDeclarations": [{"prefix", "uri"}], "childNodes": [...]}`;
    /// - text: `{"nodeType": 3, "data"}`; a comment: `{"nodeType": 8, "data"}`; a processing
    ///   instruction: `{"nodeType": 7, "target", "data"}`.
    ///
    /// Absent prefixes and namespaces are `null`.
    ///
    /// ```swift
    /// let tree = SCXMLMarkup.documentTree(of: #"<books><book title="t1"/></books>"#)
    /// tree?["childNodes"]   // .array([.object(["nodeType": .number(1), "tagName": .string("books"), ...])])
    /// ```
    /// - Complexity: O(n) in the length of `markup`.
    public static func documentTree(of markup: String) -> DataValue? {
        var body = markup.trimmingCharacters(in: .whitespacesAndNewlines)
        guard body.hasPrefix("<") else { return nil }
        if body.hasPrefix("<?xml"), let end = body.range(of: "?>") {
            body = String(body[end.upperBound...])
        }
        let wrapper = "scxml-markup-fragment"
        let data = Data("<\(wrapper)>\(body)</\(wrapper)>".utf8)
        let output = LibXML2Reader.parse(data, fileName: "<markup>")
        guard output.diagnostics.isEmpty, let root = output.root,
              root.children.contains(where: { if case .element = $0 { return true } else { return false } }) else {
            return nil
        }
        return .object(["nodeType": .number(9), "childNodes": .array(root.children.map(node))])
    }

    private static func node(_ node: XMLNode) -> DataValue {
        switch node {
        case .element(let element):
            let attributes: [DataValue] = element.attributes.map { attribute in
                .object([
                    "name": .string(attribute.qualifiedName), "localName": .string(attribute.localName),
                    "prefix": attribute.prefix.map(DataValue.string) ?? .null,
                    "namespaceURI": attribute.namespaceURI.map(DataValue.string) ?? .null,
                    "value": .string(attribute.value),
                ])
            }
            return .object([
                "nodeType": .number(1), "tagName": .string(element.qualifiedName),
                "localName": .string(element.localName),
                "prefix": element.prefix.map(DataValue.string) ?? .null,
                "namespaceURI": element.namespaceURI.flatMap { $0.isEmpty ? nil : DataValue.string($0) } ?? .null,
                "attributes": .array(attributes),
                "namespaceDeclarations": .array(element.namespaceDeclarations.map { declaration in
                    .object(["prefix": declaration.prefix.map(DataValue.string) ?? .null, "uri": .string(declaration.uri)])
                }),
                "childNodes": .array(element.children.map(Self.node)),
            ])
        case .text(let text):
            return .object(["nodeType": .number(3), "data": .string(text)])
        case .comment(let text):
            return .object(["nodeType": .number(8), "data": .string(text)])
        case .processingInstruction(let target, let data):
            return .object(["nodeType": .number(7), "target": .string(target), "data": .string(data)])
        }
    }

    /// Collapses runs of whitespace to one space and trims both ends, as SCXML does for text
    /// that is neither JSON nor XML (`"\n this  is \n a string "` becomes `"this is a string"`).
    ///
    /// ```swift
    /// SCXMLMarkup.normalizeSpace("  a \n\t b ")   // "a b"
    /// ```
    public static func normalizeSpace(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
