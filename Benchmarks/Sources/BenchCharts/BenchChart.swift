import Foundation

/// The benchmark charts of `scxml/bench`, shared by every runner so they all measure the same
/// documents with the same event cycles.
///
/// ```swift
/// let chart = BenchChart.hierarchical
/// let events = try chart.events()          // ["e1", "e2", "e3", "e4"]
/// let url = chart.documentURL              // .../scxml/bench/hierarchical.scxml
/// ```
public enum BenchChart: String, CaseIterable, Sendable {
    case turnstile, hierarchical, deep, wide, guarded, large

    /// The charts that have an event cycle and are dispatched (the large chart is only loaded).
    public static let dispatched: [BenchChart] = [.turnstile, .hierarchical, .deep, .wide, .guarded]

    /// The folder holding the charts: `$STATECHART_BENCH_CHARTS`, else `scxml/bench` of this
    /// checkout (found from this source file's path, so any working directory works).
    public static var folder: URL {
        if let path = ProcessInfo.processInfo.environment["STATECHART_BENCH_CHARTS"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()    // BenchCharts
            .deletingLastPathComponent()    // Sources
            .deletingLastPathComponent()    // Benchmarks
            .deletingLastPathComponent()    // the repository
            .appendingPathComponent("scxml/bench", isDirectory: true)
    }

    /// The SCXML document.
    public var documentURL: URL { Self.folder.appendingPathComponent("\(rawValue).scxml") }

    /// The event cycle, one name per line of `<name>.events`; read at run time, so no compiler
    /// can fold the dispatch loop.
    public func events() throws -> [String] {
        let url = Self.folder.appendingPathComponent("\(rawValue).events")
        let text = try String(contentsOf: url, encoding: .utf8)
        let names = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !names.isEmpty else { throw BenchError("\(url.path) lists no events") }
        return names
    }

    /// Events per full cycle of the configuration: every run dispatches a multiple of this, so a
    /// machine ends each run where it started (twice the event cycle covers the guarded chart,
    /// whose mode flips once per cycle).
    public func period() throws -> Int { try events().count * 2 }
}

/// A failed benchmark setup or check, with a readable reason.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
