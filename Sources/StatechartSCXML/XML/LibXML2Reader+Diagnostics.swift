import Foundation

// The reader's own diagnostics (libxml2's errors are turned into diagnostics by `finish`).

extension LibXML2Reader {
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
}
