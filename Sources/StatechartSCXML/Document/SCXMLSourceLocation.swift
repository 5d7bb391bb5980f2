import Statechart

/// A position in an SCXML source file: the same type chart definitions and compile errors use,
/// so a location travels from the parser through the compiler to diagnostics unchanged.
///
/// Lines and columns start at 1. Columns count Unicode characters (a tab is one column), and the
/// location of an element points at the `<` that opens its start tag.
public typealias SCXMLSourceLocation = SourceLocation
