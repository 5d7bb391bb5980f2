import Foundation
import Statechart

/// Test paths for SCXML documents: event sequences that, each from a fresh start, together
/// enter every state a document can reach (or take every transition), with the configuration
/// `statechart trace` prints after each event (the machine run as `trace` runs it: each event's
/// macrostep, then the events the chart sent itself; delayed sends never fire).
///
/// ```swift
/// let document = try SCXMLParser.parse(contentsOf: URL(fileURLWithPath: "traffic-light.scxml"))
/// let plan = try SCXMLTestPaths.plan(for: document)
/// for path in plan.paths { print(path.steps.map(\.event)) }   // ["button", "tick", ...]
/// plan.unreached.forEach { print($0) }
/// ```
///
/// The search runs the real machine (`SCXMLMachine`, so conditions and executable content run
/// as in production), breadth first from start-up, sending every event the document names in
/// every machine state found. Machine states are told apart by the configuration, history
/// records, queued internal events and the datamodel's variables. With the null datamodel
/// (conditions are `In()` tests) they are finite and the search exhaustive, so
/// `TestPlan.unreached` lists what no input sequence reaches; with a datamodel that has
/// variables the search is bounded by `maximumLength` and `maximumStates`, events are sent
/// without data, and what it did not reach is listed as such.
public enum SCXMLTestPaths {
    /// The events the search sends by default: every event descriptor of the document's
    /// transitions, once each, in document order of their states (a state's own transitions
    /// before its children's); a `prefix.*` descriptor as `prefix`; `*`
    /// and the platform's own events (`done.*`, `error.*`, which the machine raises itself)
    /// left out.
    ///
    /// ```swift
    /// SCXMLTestPaths.events(of: document)    // traffic light: ["power.off", "tick", "button"]
    /// ```
    public static func events(of document: SCXMLDocument) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for state in document.allStates {
            for transition in state.transitions {
                for descriptor in transition.events {
                    let name = descriptor.hasSuffix(".*") ? String(descriptor.dropLast(2)) : descriptor
                    if name.isEmpty || name == "*" || ["done", "error"].contains(where: { ChartItems.descriptor($0, matches: name) }) {
                        continue
                    }
                    if seen.insert(name).inserted { result.append(name) }
                }
            }
        }
        return result
    }

    /// Generates the paths for `document`.
    ///
    /// - Parameters:
    ///   - document: the parsed document.
    ///   - baseURL: as for ``SCXMLMachine/init(document:baseURL:options:)``.
    ///   - options: as for ``SCXMLMachine/init(document:baseURL:options:)``; the clock is
    ///     replaced by a `TestClock` that never advances.
    ///   - goal: every state, or every transition (the default).
    ///   - state: one state to reach instead: one shortest path to it.
    ///   - events: the events to send (default: ``events(of:)``).
    ///   - maximumLength: the longest event sequence tried (the default has no effect on a
    ///     null-datamodel chart short of that many events deep).
    ///   - maximumStates: the most distinct machine states kept.
    /// - Throws: ``SCXMLLoadError`` when the document does not load, ``SCXMLTestPathError``
    ///   for a document the search cannot run (an `<invoke>`, an unknown `state`).
    public static func plan(for document: SCXMLDocument, baseURL: URL? = nil, options: SCXMLMachine.Options = .init(),
                            covering goal: TestCoverageGoal = .transitions, reaching state: String? = nil,
                            events: [String]? = nil, maximumLength: Int = 1_000,
                            maximumStates: Int = 1_000_000) throws -> TestPlan<String, String> {
        if let invoking = document.allStates.first(where: { !$0.invokes.isEmpty }) {
            throw SCXMLTestPathError.invokes(state: invoking.id)
        }
        var options = options
        options.clock = TestClock()
        let frozen = options
        let subject = try SCXMLPathSubject(make: { try SCXMLMachine(document: document, baseURL: baseURL, options: frozen) },
                                           events: events ?? self.events(of: document))
        let chart = subject.chart
        var target: Int?
        if let state {
            guard let index = chart.index(of: state) else { throw SCXMLTestPathError.unknownState(state) }
            target = index
        }
        let search = try PathSearch(subject, maximumLength: maximumLength, maximumPoints: maximumStates)
        let items = ChartItems(chart: chart, diagram: ChartDiagram(document))
        let names = subject.events
        let ids = chart.stateIDs
        return search.plan(items: items, goal: goal, target: target, maximumLength: maximumLength, inputNames: names,
                           event: { names[$0] }, state: { ids[$0] })
    }
}

/// Why ``SCXMLTestPaths`` cannot search a document.
public enum SCXMLTestPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document invokes other sessions, which the search cannot put back in a state.
    case invokes(state: String)
    /// The state to reach is not in the document.
    case unknownState(String)

    public var description: String {
        switch self {
        case .invokes(let state):
            "state '\(state)' has an <invoke>: test paths are generated for charts without invocations"
        case .unknownState(let id):
            "no state '\(id)' in the document"
        }
    }
}
