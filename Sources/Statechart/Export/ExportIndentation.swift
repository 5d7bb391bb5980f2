/// The indentation of exported text (SCXML, DOT, Mermaid): one unit per nesting level, up to
/// ``maximumDepth`` levels. Past it lines keep that indentation, so the output grows linearly
/// with the chart: a legal 3,000-deep document would otherwise get millions of bytes of
/// leading spaces (the sum over its lines), enough to pass the loader's own size limit, and its
/// export would not load again.
package enum ExportIndentation {
    /// The deepest level that still indents further.
    package static let maximumDepth = 16

    /// `unit` repeated `depth` times, at most ``maximumDepth`` times.
    package static func prefix(_ depth: Int, unit: String) -> String {
        String(repeating: unit, count: min(max(depth, 0), maximumDepth))
    }
}
