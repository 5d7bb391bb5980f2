import CLibXML2
import Foundation

// The only file that touches libxml2. It parses the document into an `XMLElement` tree and turns
// libxml2's errors into diagnostics.
//
// Safety: XML_PARSE_NONET forbids network access; XML_PARSE_NOENT and XML_PARSE_DTDLOAD are not set,
// so entities are never substituted and no external DTD or entity is loaded; XML_PARSE_HUGE is not
// set, so libxml2 keeps its own size and depth limits. Entity declarations are refused outright
// (SourceScanner already rejects them; the SAX hook below is a second line of defence).
//
// Thread safety: every parse has its own parser context. Errors go to a structured handler stored
// in that context's SAX block, and the thread-local handler libxml2 falls back on for errors
// without a parser context is swapped in and restored around the parse, so nothing is printed to
// stderr and parses on other threads are not affected.

/// Collects libxml2's errors for one parse.
private final class LibXML2ErrorCollector {
    struct Entry {
        var line: Int
        var column: Int
        var message: String
    }

    var errors: [Entry] = []
    var entityDeclaration: (name: String, line: Int, column: Int)?
    /// After a fatal error libxml2 stops building the document but keeps scanning, and what it
    /// reports then is mostly a consequence of the first error ("Premature end of data"), so only
    /// errors up to the first fatal one are kept.
    private var sawFatalError = false

    func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, !sawFatalError else { return }  // warnings are not errors
        if error.level.rawValue >= XML_ERR_FATAL.rawValue { sawFatalError = true }
        var message = error.message.map { String(cString: $0) } ?? "unknown XML error"
        while let last = message.last, last.isWhitespace { message.removeLast() }
        errors.append(Entry(line: Int(error.line), column: Int(error.int2), message: message))
    }
}

private let libxml2Initialized: Bool = {
    xmlInitParser()
    return true
}()

/// Parses XML with libxml2.
enum LibXML2Reader {
    /// The outcome: a tree or the reasons there is none.
    struct Output {
        var root: XMLElement?
        var diagnostics: [SCXMLDiagnostic]
    }

    /// Parses `data` (already checked against the size limit) and attaches the scanner's tag
    /// positions to the elements.
    static func parse(_ data: Data, fileName: String, tags: [SourceScanner.Tag]) -> Output {
        precondition(libxml2Initialized)
        let collector = LibXML2ErrorCollector()
        guard let context = xmlNewParserCtxt() else {
            return Output(root: nil, diagnostics: [documentError(fileName, "libxml2 could not create a parser context")])
        }
        defer { xmlFreeParserCtxt(context) }
        let collectorPointer = Unmanaged.passUnretained(collector).toOpaque()
        context.pointee._private = collectorPointer
        if let sax = context.pointee.sax {
            sax.pointee.serror = { userData, error in
                // userData is the parser context (libxml2 passes ctxt->userData, which is the context).
                guard let userData, let error else { return }
                let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
                guard let collectorPointer = context.pointee._private else { return }
                Unmanaged<LibXML2ErrorCollector>.fromOpaque(collectorPointer).takeUnretainedValue().record(error.pointee)
            }
            sax.pointee.entityDecl = { userData, name, _, _, _, _ in
                guard let userData else { return }
                let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
                guard let collectorPointer = context.pointee._private else { return }
                let collector = Unmanaged<LibXML2ErrorCollector>.fromOpaque(collectorPointer).takeUnretainedValue()
                if collector.entityDeclaration == nil {
                    let input = context.pointee.input
                    collector.entityDeclaration = (
                        name.map { String(cString: $0) } ?? "",
                        Int(input?.pointee.line ?? 0), Int(input?.pointee.col ?? 0)
                    )
                }
                xmlStopParser(context)
            }
        }

        // Errors raised without a parser context go to the thread-local handler: route them to the
        // collector for the duration of this parse.
        let savedHandler = __xmlStructuredError().pointee
        let savedContext = __xmlStructuredErrorContext().pointee
        xmlSetStructuredErrorFunc(collectorPointer) { userData, error in
            guard let userData, let error else { return }
            Unmanaged<LibXML2ErrorCollector>.fromOpaque(userData).takeUnretainedValue().record(error.pointee)
        }
        defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }

        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let document: xmlDocPtr? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return xmlCtxtReadMemory(
                context, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), fileName, nil, options)
        }
        defer { if let document { xmlFreeDoc(document) } }

        var diagnostics: [SCXMLDiagnostic] = []
        if let entity = collector.entityDeclaration {
            diagnostics.append(entityDeclarationError(fileName, name: entity.name, line: entity.line, column: entity.column))
            return Output(root: nil, diagnostics: diagnostics)
        }
        for entry in collector.errors.prefix(20) {
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: max(entry.line, 1), column: max(entry.column, 1)),
                    element: "", message: "malformed XML: \(entry.message)"))
        }
        guard diagnostics.isEmpty else { return Output(root: nil, diagnostics: diagnostics) }
        guard let document, let rootNode = xmlDocGetRootElement(document) else {
            return Output(root: nil, diagnostics: [documentError(fileName, "malformed XML: the document has no root element")])
        }
        var converter = Converter(fileName: fileName, tags: tags)
        let root = converter.convert(rootNode)
        return Output(root: root, diagnostics: converter.diagnostics)
    }

    static func documentError(_ fileName: String, _ message: String) -> SCXMLDiagnostic {
        SCXMLDiagnostic(location: SCXMLSourceLocation(file: fileName, line: 1, column: 1), element: "", message: message)
    }

    static func entityDeclarationError(_ fileName: String, name: String, line: Int, column: Int) -> SCXMLDiagnostic {
        SCXMLDiagnostic(
            location: SCXMLSourceLocation(file: fileName, line: max(line, 1), column: max(column, 1)), element: "",
            message:
                "the DOCTYPE declares the entity '\(name)'; entity declarations are not allowed in SCXML documents "
                + "(they enable entity-expansion and external-entity attacks): write the text out instead")
    }

    /// Copies libxml2's tree into `XMLElement`s.
    private struct Converter {
        let fileName: String
        let tags: [SourceScanner.Tag]
        var nextTag = 0
        var diagnostics: [SCXMLDiagnostic] = []
        /// Names, prefixes and namespace URIs by their libxml2 pointer: the parser interns names
        /// in its dictionary and namespace URIs live in one xmlNs each, so a document converts
        /// each distinct one once instead of once per element.
        private var interned: [UnsafeRawPointer: String] = [:]

        init(fileName: String, tags: [SourceScanner.Tag]) {
            self.fileName = fileName
            self.tags = tags
        }

        private mutating func string(_ text: UnsafePointer<xmlChar>) -> String {
            let key = UnsafeRawPointer(text)
            if let known = interned[key] { return known }
            let value = String(cString: text)
            interned[key] = value
            return value
        }

        mutating func convert(_ node: xmlNodePtr) -> XMLElement {
            let localName = string(node.pointee.name)
            let prefix = node.pointee.ns?.pointee.prefix.map { string($0) }
            let qualifiedName = prefix.map { "\($0):\(localName)" } ?? localName
            var line = Int(xmlGetLineNo(node))
            var column = 1
            if nextTag < tags.count, tags[nextTag].name == qualifiedName {
                line = tags[nextTag].line
                column = tags[nextTag].column
            }
            nextTag += 1
            var element = XMLElement(
                localName: localName, prefix: prefix,
                namespaceURI: node.pointee.ns?.pointee.href.map { string($0) },
                attributes: [], namespaceDeclarations: [], children: [], line: line, column: column)

            var declaration = node.pointee.nsDef
            while let current = declaration {
                element.namespaceDeclarations.append(
                    XMLNamespaceDeclaration(
                        prefix: current.pointee.prefix.map { String(cString: $0) },
                        uri: current.pointee.href.map { String(cString: $0) } ?? ""))
                declaration = current.pointee.next
            }

            var attribute = node.pointee.properties
            while let current = attribute {
                var value = ""
                var child = current.pointee.children
                while let valueNode = child {
                    if valueNode.pointee.type == XML_ENTITY_REF_NODE {
                        unresolvedEntity(valueNode, in: element)
                    } else if let content = valueNode.pointee.content {
                        value += String(cString: content)
                    }
                    child = valueNode.pointee.next
                }
                element.attributes.append(
                    XMLAttribute(
                        localName: string(current.pointee.name),
                        prefix: current.pointee.ns?.pointee.prefix.map { string($0) },
                        namespaceURI: current.pointee.ns?.pointee.href.map { string($0) },
                        value: value))
                attribute = current.pointee.next
            }

            var child = node.pointee.children
            while let current = child {
                switch current.pointee.type {
                case XML_ELEMENT_NODE:
                    element.children.append(.element(convert(current)))
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = current.pointee.content { element.children.append(.text(String(cString: content))) }
                case XML_COMMENT_NODE:
                    element.children.append(.comment(current.pointee.content.map { String(cString: $0) } ?? ""))
                case XML_PI_NODE:
                    element.children.append(
                        .processingInstruction(
                            target: String(cString: current.pointee.name),
                            data: current.pointee.content.map { String(cString: $0) } ?? ""))
                case XML_ENTITY_REF_NODE:
                    unresolvedEntity(current, in: element)
                default:
                    break
                }
                child = current.pointee.next
            }
            return element
        }

        mutating func unresolvedEntity(_ node: xmlNodePtr, in element: XMLElement) {
            let name = String(cString: node.pointee.name)
            diagnostics.append(
                SCXMLDiagnostic(
                    location: SCXMLSourceLocation(file: fileName, line: element.line, column: element.column),
                    element: element.localName,
                    message:
                        "the entity reference '&\(name);' cannot be resolved: entities are neither declared nor loaded "
                        + "from external DTDs; use a character reference or write the text out"))
        }
    }
}
