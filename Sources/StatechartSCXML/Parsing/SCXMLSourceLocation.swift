/// A position in an SCXML source file.
///
/// Lines and columns start at 1. Columns count Unicode characters (a tab is one column), and the
/// location of an element points at the `<` that opens its start tag.
public struct SCXMLSourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file name the document was parsed under (a path, or the name passed to `parse(string:fileName:)`).
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in characters.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file name, then line, then column.
    public static func < (lhs: SCXMLSourceLocation, rhs: SCXMLSourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
