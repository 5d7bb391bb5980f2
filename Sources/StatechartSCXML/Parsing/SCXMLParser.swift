import Foundation

/// Parses SCXML 1.0 documents into ``SCXMLDocument`` and checks every static constraint of the
/// specification, reporting all problems at once.
///
/// ```swift
/// do {
///     let document = try SCXMLParser.parse(contentsOf: URL(fileURLWithPath: "machine.scxml"))
///     print(document.states.map(\.id))
/// } catch {
///     for diagnostic in error.diagnostics { print(diagnostic) }  // file:line:column: error: message
/// }
/// ```
///
/// Parsing never touches the network and never loads external entities or DTDs; documents that
/// declare entities are refused. Parsers may run on several threads at once.
public enum SCXMLParser {
    /// Resource limits; a document over a limit is refused with a diagnostic naming the limit.
    public struct Limits: Sendable, Hashable {
        /// The largest document accepted, in bytes. Default 16 MiB.
        public var maxDocumentSize: Int
        /// The deepest element nesting accepted (the root is level 1). Default 4,096: far deeper
        /// than charts nest (uSCXML's deepest benchmark, `LCCA.256`, about 260), while a hostile
        /// document is refused at the first element past it, as soon as the parser reaches it.
        /// Documents deeper than a few dozen levels are built on a thread whose stack fits them.
        public var maxDepth: Int
        /// The most `<state>`, `<parallel>`, `<final>` and `<history>` elements accepted, counting
        /// documents nested in `<invoke>`. Default 100 000.
        public var maxStates: Int

        /// Creates limits; every argument defaults to the default limit.
        public init(maxDocumentSize: Int = 16 * 1024 * 1024, maxDepth: Int = 4_096, maxStates: Int = 100_000) {
            self.maxDocumentSize = maxDocumentSize
            self.maxDepth = maxDepth
            self.maxStates = maxStates
        }

        /// The default limits.
        public static let `default` = Limits()
    }

    /// Parses the file at `url`, which must be a file URL. Diagnostics name the file by its path.
    ///
    /// What other tools write that breaks a rule of SCXML but has one obvious meaning loads with
    /// that meaning and a warning in ``SCXMLDocument/warnings``; with `strict` it is an error
    /// (docs/COMPATIBILITY.md lists the cases).
    public static func parse(
        contentsOf url: URL, limits: Limits = .default, strict: Bool = false
    ) throws(SCXMLParseError) -> SCXMLDocument {
        try parse(data: readDocument(contentsOf: url, limits: limits), fileName: url.path, limits: limits, strict: strict)
    }

    /// The bytes of the file at `url`, which must be a file URL (diagnostics name it by its path).
    package static func readDocument(contentsOf url: URL, limits: Limits) throws(SCXMLParseError) -> Data {
        guard url.isFileURL else {
            throw error(
                url.absoluteString,
                "only file URLs can be parsed (SCXMLParser never uses the network); '\(url.absoluteString)' is not one")
        }
        return try readDocument(url.path, fileName: url.path, limits: limits)
    }

    /// The bytes of the document file at `path`, no more than `limits.maxDocumentSize` read;
    /// `fileName` names it in the diagnostics (a directory, a FIFO, a file too large).
    package static func readDocument(_ path: String, fileName: String, limits: Limits) throws(SCXMLParseError) -> Data {
        try readDocument(pathBytes: Array(path.utf8), fileName: fileName, limits: limits)
    }

    /// ``readDocument(_:fileName:limits:)`` for a path given as bytes (a file name that is not
    /// UTF-8, as a command line passes it).
    package static func readDocument(pathBytes: [UInt8], fileName: String, limits: Limits) throws(SCXMLParseError) -> Data {
        do {
            return try BoundedFileReader.read(pathBytes: pathBytes, limit: limits.maxDocumentSize)
        } catch .tooLarge(let size, _) {
            throw sizeError(fileName, size: size, limits: limits)
        } catch {
            throw Self.error(fileName, "cannot read the file: \(fileName) \(error.message)")
        }
    }

    /// Parses a document held in a string. `fileName` is used in source locations.
    public static func parse(
        string: String, fileName: String = "<string>", limits: Limits = .default, strict: Bool = false
    ) throws(SCXMLParseError) -> SCXMLDocument {
        try parse(data: Data(string.utf8), fileName: fileName, limits: limits, strict: strict)
    }

    /// Parses a document held in memory (any encoding libxml2 detects). `fileName` is used in source locations.
    public static func parse(
        data: Data, fileName: String = "<data>", limits: Limits = .default, strict: Bool = false
    ) throws(SCXMLParseError) -> SCXMLDocument {
        let parsed = collect(data: data, fileName: fileName, limits: limits, strict: strict)
        guard let document = parsed.document, !parsed.diagnostics.contains(where: \.isError) else {
            throw SCXMLParseError(diagnostics: parsed.diagnostics)
        }
        return document
    }

    /// A parse that keeps going: the model (with ``SCXMLDocument/warnings`` set when there is no
    /// error), and every diagnostic, errors and warnings, in document order. The model is `nil`
    /// only when the XML itself could not be read; with errors it is what could be built, so
    /// later checks (a datamodel's) can report theirs in the same run.
    package static func collect(
        data: Data, fileName: String, limits: Limits, strict: Bool
    ) -> (document: SCXMLDocument?, diagnostics: [SCXMLDiagnostic]) {
        func failure(_ error: SCXMLParseError) -> (document: SCXMLDocument?, diagnostics: [SCXMLDiagnostic]) {
            (nil, error.diagnostics)
        }
        guard data.count <= limits.maxDocumentSize else { return failure(sizeError(fileName, size: data.count, limits: limits)) }
        guard data.count <= Int(Int32.max) else {
            return failure(error(fileName, "the document is \(data.count) bytes; libxml2 cannot parse documents of 2 GiB or more"))
        }
        // White space alone (XML's four characters) is as empty as no bytes: the same message,
        // rather than libxml2's "Start tag expected".
        guard data.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            return failure(error(fileName, "the document is empty; an SCXML document needs an <scxml> root element"))
        }

        let xml = LibXML2Reader.read(data, fileName: fileName, maxDepth: limits.maxDepth)
        guard let owner = xml.tree, let root = owner.view.root, xml.diagnostics.isEmpty else {
            return (nil, sorted(xml.diagnostics))
        }
        let tree = owner.view
        let rootLocation = SCXMLSourceLocation(file: fileName, line: tree.line(root), column: tree.column(root))
        guard tree.localName(root) == "scxml" else {
            return (nil, [
                SCXMLDiagnostic(
                    location: rootLocation, element: tree.localName(root),
                    message: "the root element is <\(tree.qualifiedName(root))>; an SCXML document must start with <scxml>")
            ])
        }
        guard tree.isSCXML(root) else {
            let message =
                if let namespace = tree.namespaceURI(root) {
                    "<scxml> is in the namespace '\(namespace)'; SCXML documents use "
                        + "xmlns=\"\(SCXMLDocument.namespace)\""
                } else {
                    "<scxml> is not in the SCXML namespace; add xmlns=\"\(SCXMLDocument.namespace)\""
                }
            return (nil, [SCXMLDiagnostic(location: rootLocation, element: "scxml", message: message)])
        }

        var (document, diagnostics) = NestingStack.run(depth: xml.depth) {
            var builder = SCXMLBuilder(tree: owner, fileName: fileName, limits: limits)
            var document = builder.buildDocument(root)
            let problems = builder.diagnostics + SCXMLValidator.validate(&document)
            return (document, problems)
        }
        document.nestingDepth = xml.depth
        if strict { diagnostics = diagnostics.map(\.asError) }
        // Errors and warnings together, in document order: one run shows everything.
        diagnostics = sorted(diagnostics)
        if !diagnostics.contains(where: \.isError) { document.warnings = diagnostics }
        return (document, diagnostics)
    }

    // MARK: - Errors

    /// `diagnostics` in document order (by location; those at one location in the order found).
    package static func sorted(_ diagnostics: [SCXMLDiagnostic]) -> [SCXMLDiagnostic] {
        diagnostics.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
    }

    private static func error(_ fileName: String, _ message: String) -> SCXMLParseError {
        SCXMLParseError(diagnostics: [LibXML2Reader.documentError(fileName, message)])
    }

    private static func sizeError(_ fileName: String, size: Int, limits: Limits) -> SCXMLParseError {
        error(
            fileName,
            "the document is \(size) bytes, more than the limit of \(limits.maxDocumentSize) bytes "
                + "(SCXMLParser.Limits.maxDocumentSize)")
    }
}
