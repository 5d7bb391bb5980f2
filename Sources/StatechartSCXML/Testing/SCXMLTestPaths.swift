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
/// for path in plan.paths { print(path.steps.map(\.event.line)) }   // ["button", "tick", ...]
/// plan.unreached.forEach { print($0) }
/// ```
///
/// The search runs the real machine (`SCXMLMachine`, so conditions and executable content run
/// as in production), breadth first from start-up, sending every event the document names in
/// every machine state found. Machine states are told apart by the configuration, history
/// records, queued internal events and the datamodel's variables. With the null datamodel
/// (conditions are `In()` tests) they are finite and the search exhaustive, so
/// `TestPlan.unreached` lists what no input sequence reaches; with a datamodel that has
/// variables the search is bounded by `maximumLength` and `maximumStates`, and what it did not
/// reach is listed with the reason: the bound, or a condition that never held with the data
/// the events were sent with. An event is sent with the data of each example the document
/// gives of it (``SCXMLEventExample``: `<test:event name="..." data="..."/>`), or without data
/// when it gives none (``inputs(of:)``).
///
/// Sessions the document invokes run as `statechart trace` runs them: after each event (and
/// the events the chart sent itself) they start, run and send their events, which the chart
/// takes like any other, all in the order they were sent. Their states are part of the machine
/// state, so a null-datamodel document whose invoked documents are null-datamodel too is
/// still searched exhaustively.
public enum SCXMLTestPaths {
    /// The events the document's transitions name, which the search sends (``inputs(of:)``
    /// adds their data): every event descriptor of the document's transitions, once each, in
    /// document order of their states (a state's own transitions before its children's); a
    /// `prefix.*` descriptor as `prefix`; `*` and the platform's own events (`done.*`,
    /// `error.*`, which the machine raises itself) left out.
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

    /// The events the search sends by default, with their data: each of ``events(of:)``, then
    /// each event only the document's examples name, in document order; an event with
    /// examples (``SCXMLDocument/eventExamples``) once with each example's data (an example
    /// without `data`: without data; repeats once), any other once without data.
    ///
    /// ```swift
    /// try SCXMLTestPaths.inputs(of: document).map(\.line)   // ["order.placed {\"amount\":120}", "cancel"]
    /// ```
    ///
    /// - Throws: ``SCXMLTestPathError/invalidExample(_:_:)`` for an example without a `name`
    ///   or whose `data` is not JSON.
    public static func inputs(of document: SCXMLDocument) throws(SCXMLTestPathError) -> [SCXMLTestEvent] {
        var examples: [String: [SCXMLTestEvent]] = [:]
        var exampleNames: [String] = []
        for example in document.eventExamples {
            guard let name = example.name, !name.isEmpty else {
                throw .invalidExample(example.sourceLocation, "<test:event> needs a name attribute: the event's name")
            }
            var data: DataValue?
            if let text = example.data {
                guard let value = DataValue(json: text) else {
                    throw .invalidExample(example.sourceLocation,
                                          "the data of <test:event name='\(name)'> is not JSON: \(text)")
                }
                data = value
            }
            let event = SCXMLTestEvent(name, data: data)
            if examples[name] == nil { exampleNames.append(name) }
            if !(examples[name]?.contains(event) ?? false) { examples[name, default: []].append(event) }
        }
        let named = events(of: document)
        let known = Set(named)
        let names = named + exampleNames.filter { !known.contains($0) }
        return names.flatMap { examples[$0] ?? [SCXMLTestEvent($0)] }
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
    ///   - events: the events to send (default: ``inputs(of:)``).
    ///   - maximumLength: the longest event sequence tried (the default has no effect on a
    ///     null-datamodel chart short of that many events deep).
    ///   - maximumStates: the most distinct machine states kept.
    /// - Throws: ``SCXMLLoadError`` when the document does not load, ``SCXMLTestPathError``
    ///   for an unknown `state` or an invalid example.
    public static func plan(for document: SCXMLDocument, baseURL: URL? = nil, options: SCXMLMachine.Options = .init(),
                            covering goal: TestCoverageGoal = .transitions, reaching state: String? = nil,
                            events: [SCXMLTestEvent]? = nil, maximumLength: Int = 1_000,
                            maximumStates: Int = 1_000_000) throws -> TestPlan<SCXMLTestEvent, String> {
        var options = options
        options.clock = TestClock()
        options.hostRunsSessions = true
        let frozen = options
        let subject = try SCXMLPathSubject(make: { try SCXMLMachine(document: document, baseURL: baseURL, options: frozen) },
                                           events: try events ?? inputs(of: document))
        let chart = subject.chart
        var target: Int?
        if let state {
            guard let index = chart.index(of: state) else { throw SCXMLTestPathError.unknownState(state) }
            target = index
        }
        let search = try PathSearch(subject, maximumLength: maximumLength, maximumPoints: maximumStates)
        let items = ChartItems(chart: chart, diagram: ChartDiagram(document))
        let inputs = subject.events
        let ids = chart.stateIDs
        return search.plan(items: items, goal: goal, target: target, maximumLength: maximumLength,
                           inputNames: inputs.map(\.name),
                           // The null datamodel's conditions cannot read data: no need to say how it went.
                           inputDetails: subject.readsData ? inputs.map { $0.data.map { "with " + $0.jsonText } ?? "without data" } : nil,
                           event: { inputs[$0] }, state: { ids[$0] })
    }
}

/// Why ``SCXMLTestPaths`` cannot search a document.
public enum SCXMLTestPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state to reach is not in the document.
    case unknownState(String)
    /// A `<test:event>` example without a name, or whose data is not JSON.
    case invalidExample(SCXMLSourceLocation, String)

    public var description: String {
        switch self {
        case .unknownState(let id):
            "no state '\(id)' in the document"
        case .invalidExample(let location, let message):
            "\(location): error: \(message)"
        }
    }
}
