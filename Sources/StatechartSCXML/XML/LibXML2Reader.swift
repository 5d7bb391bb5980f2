import CLibXML2
import Foundation


// The only file that touches libxml2. libxml2 parses the document and reports it through SAX2
// callbacks, which write it straight into an `XMLTree` (no libxml2 tree is built or freed); its
// errors become diagnostics.
//
// The tree is exactly the one libxml2's own SAX2 tree builder would build (xmlSAX2StartElementNs
// and friends in libxml2 2.9): adjacent character data is one text node and adjacent CDATA
// sections one CDATA node; namespace declarations keep their order and `xmlns:xml` is dropped;
// attributes defaulted from a DTD are left out; in attribute values holding references, libxml2
// leaves `&#38;` for every `&` (decoded here, as its xmlStringLenGetNodeList would); a non-NCName
// `xml:id` and an over-long text node are reported as the tree builder reports them.
//
// Safety: XML_PARSE_NONET forbids network access; XML_PARSE_NOENT and XML_PARSE_DTDLOAD are not set,
// so entities are never substituted and no external DTD or entity is loaded. XML_PARSE_HUGE is set
// only to lift libxml2's fixed depth limit of 256 (uSCXML's benchmarks nest deeper): the depth
// limit is SCXMLParser.Limits.maxDepth, enforced in SAXState.startElement, which stops the parser
// at the first element past it; the text-node limit libxml2 would apply is kept
// (maximumTextLength), and the document size limit bounds every other length. Entity declarations are refused outright:
// the SAX hook below stops the parser at the first one, and the document (which has a DOCTYPE)
// then goes through SourceScanner, which reports it.
//
// Positions: see SAXState.locate (from the document's bytes while libxml2 reads) and
// SourceScanner (when that is not certain).
//
// Thread safety: every parse has its own parser context and SAX state. Errors go to a structured
// handler stored in that context's SAX block, and the thread-local handler libxml2 falls back on
// for errors without a parser context is swapped in and restored around the parse, so nothing is
// printed to stderr and parses on other threads are not affected.

/// Parses XML with libxml2.
enum LibXML2Reader {
    /// The outcome: a tree or the reasons there is none.
    struct Output {
        var tree: XMLTree?
        /// The deepest element nesting (the root is 1).
        var depth = 0
        var diagnostics: [SCXMLDiagnostic]
    }

    /// Parses a document (`data`, already checked against the size limit) into a tree whose
    /// elements carry the positions of their start tags, refusing documents nested deeper than
    /// `maxDepth` and documents that declare entities (SourceScanner's rules).
    static func read(_ data: Data, fileName: String, maxDepth: Int) -> Output {
        let plain = SourceText.isPlainUTF8(data)
        return data.withUnsafeBytes { bytes in
            let raw = plain ? bytes.bindMemory(to: UInt8.self) : nil
            var run = self.run(data, fileName: fileName, state: SAXState(raw: raw, documentSize: data.count, maxDepth: maxDepth, dropsStructuralBlanks: true))
            let certain = run.positionsOK && !run.tooDeep && !run.sawDoctype && run.errors.isEmpty
                && run.entityDeclaration == nil
            if !certain {
                // SourceScanner decides, as it did before libxml2 ever saw the document: entity
                // declarations and the depth limit first, then its tags give the positions.
                let source = SourceText(data: data)
                let scan = SourceScanner.scan(source, maxDepth: maxDepth)
                if let entity = scan.entityDeclaration {
                    run.tree.deallocate()
                    return Output(tree: nil, diagnostics: [
                        entityDeclarationError(fileName, name: entity.name, line: entity.line, column: entity.column)
                    ])
                }
                if let tag = scan.tooDeep {
                    run.tree.deallocate()
                    let name = tag.name.split(separator: ":").last.map(String.init) ?? tag.name
                    return Output(tree: nil, diagnostics: [
                        SCXMLDiagnostic(
                            location: SCXMLSourceLocation(file: fileName, line: tag.line, column: tag.column), element: name,
                            message:
                                "<\(tag.name)> is nested \(maxDepth + 1) elements deep, more than the limit of "
                                + "\(maxDepth) (SCXMLParser.Limits.maxDepth)")
                    ])
                }
                run.assignPositions(tags: scan.tags, source: source)
            }
            return finish(&run, fileName: fileName)
        }
    }

    /// Parses `data` into a value tree (for XML carried as data: positions are libxml2's lines and
    /// column 1).
    static func parse(_ data: Data, fileName: String) -> (root: XMLElement?, diagnostics: [SCXMLDiagnostic]) {
        var run = self.run(data, fileName: fileName, state: SAXState(raw: nil, documentSize: data.count, maxDepth: .max, dropsStructuralBlanks: false))
        run.assignPositions(tags: [], source: SourceText(bytes: [], isSingleByte: false))
        let output = finish(&run, fileName: fileName)
        return (output.tree.flatMap { tree in tree.view.root.map { tree.view.element($0) } }, output.diagnostics)
    }

    /// The tree or the diagnostics of a run.
    private static func finish(_ run: inout SAXState, fileName: String) -> Output {
        var tree: XMLTree? = XMLTree(run.tree)  // owns (and frees) the buffers from here on
        if run.contextFailed {
            return Output(tree: nil, diagnostics: [documentError(fileName, "libxml2 could not create a parser context")])
        }
        var diagnostics: [SCXMLDiagnostic] = []
        if let entity = run.entityDeclaration {
            diagnostics.append(entityDeclarationError(fileName, name: entity.name, line: entity.line, column: entity.column))
            return Output(tree: nil, diagnostics: diagnostics)
        }
        for entry in run.errors.prefix(20) {
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: max(entry.line, 1), column: max(entry.column, 1)),
                    element: "", message: "malformed XML: \(entry.message)"))
        }
        guard diagnostics.isEmpty else { return Output(tree: nil, diagnostics: diagnostics) }
        guard run.hasDocument, let owner = tree, !run.tree.nodes.isEmpty else {
            return Output(tree: nil, diagnostics: [documentError(fileName, "malformed XML: the document has no root element")])
        }
        tree = nil
        let view = owner.view
        for (element, name) in run.unresolvedEntities {
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: view.line(element), column: view.column(element)),
                    element: view.localName(element),
                    message:
                        "the entity reference '&\(name);' cannot be resolved: entities are neither declared nor loaded "
                        + "from external DTDs; use a character reference or write the text out"))
        }
        return Output(tree: owner, depth: run.deepest, diagnostics: diagnostics)
    }
}
