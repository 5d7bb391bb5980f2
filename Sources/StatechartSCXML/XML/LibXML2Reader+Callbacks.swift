import CLibXML2
import Foundation

// The SAX2 callbacks libxml2 calls during a parse, each forwarding to the parse's `SAXState`,
// and the structured error handler swapped in around the parse.

private let libxml2Initialized: Bool = {
    xmlInitParser()
    return true
}()

@inline(__always)
private func saxState(_ userData: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, UnsafeMutablePointer<SAXState>)? {
    // userData is the parser context (libxml2 passes ctxt->userData, which is the context).
    guard let userData else { return nil }
    let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let pointer = context.pointee._private else { return nil }
    return (context, pointer.assumingMemoryBound(to: SAXState.self))
}

extension LibXML2Reader {
    /// Runs libxml2 over `data` with the SAX callbacks writing into `state`.
    static func run(_ data: Data, fileName: String, state: consuming SAXState) -> SAXState {
        precondition(libxml2Initialized)
        let statePointer = UnsafeMutablePointer<SAXState>.allocate(capacity: 1)
        statePointer.initialize(to: state)
        defer { statePointer.deallocate() }
        guard let context = xmlNewParserCtxt() else {
            statePointer.pointee.contextFailed = true
            return statePointer.move()
        }
        defer { xmlFreeParserCtxt(context) }
        context.pointee._private = UnsafeMutableRawPointer(statePointer)
        if let sax = context.pointee.sax {
            sax.pointee.serror = { userData, error in
                guard let (_, state) = saxState(userData), let error else { return }
                state.pointee.record(error.pointee)
            }
            sax.pointee.entityDecl = { userData, name, _, _, _, _ in
                guard let (context, state) = saxState(userData) else { return }
                if state.pointee.entityDeclaration == nil {
                    let input = context.pointee.input
                    state.pointee.entityDeclaration = (
                        name.map { String(cString: $0) } ?? "",
                        Int(input?.pointee.line ?? 0), Int(input?.pointee.col ?? 0)
                    )
                }
                xmlStopParser(context)
            }
            sax.pointee.internalSubset = { userData, name, externalID, systemID in
                guard let (_, state) = saxState(userData) else { return }
                state.pointee.sawDoctype = true
                xmlSAX2InternalSubset(userData, name, externalID, systemID)
            }
            sax.pointee.startElementNs = { userData, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaulted, attributes in
                guard let (context, state) = saxState(userData), let localName else { return }
                var count = Int(attributeCount)
                // Attributes defaulted from the DTD are only added with XML_PARSE_DTDATTR.
                if defaulted != 0 && (context.pointee.loadsubset & XML_COMPLETE_ATTRS) == 0 { count -= Int(defaulted) }
                state.pointee.startElement(
                    context, localName: localName, prefix: prefix, uri: uri, namespaceCount: Int(namespaceCount),
                    namespaces: namespaces, attributeCount: count, attributes: attributes)
            }
            sax.pointee.endElementNs = { userData, _, _, _ in
                guard let (_, state) = saxState(userData) else { return }
                state.pointee.endElement()
            }
            let characters: charactersSAXFunc = { userData, text, length in
                guard let (context, state) = saxState(userData) else { return }
                state.pointee.characters(context, text, Int(length), cdata: false)
            }
            sax.pointee.characters = characters
            sax.pointee.ignorableWhitespace = characters
            sax.pointee.cdataBlock = { userData, text, length in
                guard let (context, state) = saxState(userData) else { return }
                state.pointee.characters(context, text, Int(length), cdata: true)
            }
            sax.pointee.comment = { userData, text in
                guard let (context, state) = saxState(userData), context.pointee.inSubset == 0 else { return }
                state.pointee.comment(text)
            }
            sax.pointee.processingInstruction = { userData, target, data in
                guard let (context, state) = saxState(userData), context.pointee.inSubset == 0 else { return }
                state.pointee.processingInstruction(target: target, data: data)
            }
            sax.pointee.reference = { userData, name in
                guard let (_, state) = saxState(userData) else { return }
                state.pointee.reference(name)
            }
        }

        // Errors raised without a parser context go to the thread-local handler: route them to the
        // state for the duration of this parse.
        let savedHandler = __xmlStructuredError().pointee
        let savedContext = __xmlStructuredErrorContext().pointee
        xmlSetStructuredErrorFunc(UnsafeMutableRawPointer(statePointer)) { userData, error in
            guard let userData, let error else { return }
            userData.assumingMemoryBound(to: SAXState.self).pointee.record(error.pointee)
        }
        defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }

        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_HUGE.rawValue)
        let document: xmlDocPtr? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return xmlCtxtReadMemory(
                context, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), fileName, nil, options)
        }
        if let document {
            statePointer.pointee.hasDocument = true
            xmlFreeDoc(document)
        }
        return statePointer.move()
    }
}
