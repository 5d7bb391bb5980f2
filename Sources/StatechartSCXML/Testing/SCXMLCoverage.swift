import Foundation
import Statechart

/// Which states of a document a set of traces entered and which transitions they took.
///
/// ```swift
/// var coverage = try SCXMLCoverage(document: document)
/// try coverage.add(trace: traceText, file: "run1.trace")
/// print(coverage.summary)          // "states: 9 of 9 entered (100%); transitions: 8 of 9 taken (88.9%)"
/// coverage.missed.forEach { print($0) }
/// let dot = coverage.dot()         // the chart, never-exercised parts in red
/// ```
///
/// A trace is what `statechart trace` prints (with or without `--verbose`), what the generated
/// C trace main prints (the same configuration lines), or `TransitionRecord` lines
/// (`source -event-> targets`) printed from `Machine.onTransition`. Lines naming transitions
/// (microsteps, records) are matched to the chart's transitions by source, targets and event;
/// a trace of configuration lines only is replayed on the real machine (as `trace` runs it),
/// which tells the transitions taken. Either way a line that does not fit the chart (an unknown
/// state, a transition the chart does not have, a configuration the machine does not reach
/// with those events) is refused with its line number, and nothing of that trace is counted.
public struct SCXMLCoverage {
    private let items: ChartItems
    private let diagram: ChartDiagram
    private let replayer: CoverageReplayer
    private var entered: [Bool]
    private var taken: [Bool]

    /// Coverage of `document`, with nothing exercised yet. `baseURL` and `options` load it as
    /// ``SCXMLMachine/init(document:baseURL:options:)`` does (for replayed traces; the clock is
    /// replaced by a `TestClock` that never advances, as in `trace`).
    public init(document: SCXMLDocument, baseURL: URL? = nil, options: SCXMLMachine.Options = .init()) throws {
        var options = options
        options.clock = TestClock()
        options.hostRunsSessions = true     // invoked sessions run as `trace` runs them
        let frozen = options
        let make = { try SCXMLMachine(document: document, baseURL: baseURL, options: frozen) }
        let first = try make()
        let chart = first.machine.chart
        replayer = CoverageReplayer(make: make, first: first)
        diagram = ChartDiagram(document)
        items = ChartItems(chart: chart, diagram: diagram)
        entered = Array(repeating: false, count: chart.stateCount)
        taken = Array(repeating: false, count: chart.transitionCount)
    }

    /// Counts what the trace `text` (named `file` in errors) exercised.
    /// - Throws: ``SCXMLTraceError`` at the first line that is not a trace line or does not
    ///   fit the chart; then nothing of this trace is counted.
    public mutating func add(trace text: String, file: String) throws {
        var lines: [(number: Int, line: TraceLine)] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            switch TraceLine.parse(String(raw)) {
            case nil: continue
            case .failure(let error)?: throw SCXMLTraceError(file: file, line: offset + 1, message: error.message)
            case .success(let line)?: lines.append((offset + 1, line))
            }
        }
        let namesTransitions = lines.contains {
            switch $0.line {
            case .microstep, .transition: true
            default: false
            }
        }
        var states: [Int] = []
        var transitions: [Int] = []
        if namesTransitions {
            try match(lines, file: file, states: &states, transitions: &transitions)
        } else {
            try replay(lines, file: file, states: &states, transitions: &transitions)
        }
        for s in states { entered[s] = true }
        for t in transitions { taken[t] = true }
    }

    private func index(_ id: String, file: String, line: Int) throws -> Int {
        guard let index = items.chart.index(of: id) else {
            throw SCXMLTraceError(file: file, line: line, message: "no state '\(id)' in the chart")
        }
        return index
    }

    /// Lines that name transitions: each matched to the chart's.
    private func match(_ lines: [(number: Int, line: TraceLine)], file: String, states: inout [Int], transitions: inout [Int]) throws {
        func resolve(_ transition: TraceLine.Taken, line: Int) throws -> Int {
            _ = try index(transition.source, file: file, line: line)
            guard let found = items.transition(matching: transition) else {
                throw SCXMLTraceError(file: file, line: line, message: "the chart has no transition \(ChartItems.text(of: transition))")
            }
            return found
        }
        for (number, line) in lines {
            switch line {
            case .configuration(_, let ids):
                for id in ids { states += items.withAncestors(try index(id, file: file, line: number)) }
            case .microstep(_, let list, _, let ids, _):
                for id in ids { states.append(try index(id, file: file, line: number)) }
                for transition in list { transitions.append(try resolve(transition, line: number)) }
            case .transition(let transition):
                let t = try resolve(transition, line: number)
                transitions.append(t)
                // Active afterwards: the targets and their ancestors (a history target is
                // not a state that becomes active; what it restores is not in the record).
                for target in transition.targets { states += items.withAncestors(try index(target, file: file, line: number)) }
            case .note:
                break
            }
        }
    }

    /// Configuration lines only: replayed on the real machine, each configuration checked.
    private func replay(_ lines: [(number: Int, line: TraceLine)], file: String, states: inout [Int], transitions: inout [Int]) throws {
        let ids = items.chart.stateIDs
        var started = false
        for (number, line) in lines {
            guard case .configuration(let event, let expected) = line else { continue }
            let actual: [Int]
            if !started {
                guard event == nil else {
                    throw SCXMLTraceError(file: file, line: number, message:
                        "a trace begins with start-up's line ({\"event\": null, ...}), not event '\(event!)'")
                }
                let start = try replayer.start()
                actual = start.configuration
                states += start.entered
                transitions += start.taken
                started = true
            } else if let event {
                actual = replayer.step(event)
            } else {
                throw SCXMLTraceError(file: file, line: number, message: "a second start-up line ({\"event\": null, ...})")
            }
            guard actual.map({ ids[$0] }) == expected else {
                let after = event.map { "after '\($0)'" } ?? "after start-up"
                throw SCXMLTraceError(file: file, line: number, message:
                    "\(after) the chart is in \(Self.list(actual.map { ids[$0] })), but the trace says \(Self.list(expected))")
            }
            let (e, t) = replayer.settle()
            states += e
            transitions += t
        }
    }

    private static func list(_ ids: [String]) -> String { "[" + ids.joined(separator: ", ") + "]" }

    /// The states entered, in document order.
    public var enteredStates: [String] { items.states.filter { entered[$0] }.map { items.chart.stateIDs[$0] } }
    /// The states never entered, in document order.
    public var missedStates: [String] { items.states.filter { !entered[$0] }.map { items.chart.stateIDs[$0] } }
    /// The transitions taken, as `source -events [condition]-> targets`, in document order.
    public var takenTransitions: [String] { items.transitions.filter { taken[$0] }.map(items.describe(transition:)) }
    /// The transitions never taken, in document order.
    public var missedTransitions: [String] { items.transitions.filter { !taken[$0] }.map(items.describe(transition:)) }

    /// `state 'ID'` and `transition SOURCE -EVENT-> TARGETS` for everything never exercised.
    public var missed: [String] {
        missedStates.map { "state '\($0)'" } + missedTransitions.map { "transition \($0)" }
    }

    /// `states: E of S entered (P%); transitions: T of N taken (Q%)`.
    public var summary: String {
        func part(_ done: Int, _ all: Int, _ verb: String) -> String {
            let tenths = all == 0 ? 1000 : (done * 1000 + all / 2) / all
            let percent = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
            return "\(done) of \(all) \(verb) (\(percent)%)"
        }
        return "states: \(part(enteredStates.count, items.states.count, "entered")); "
            + "transitions: \(part(takenTransitions.count, items.transitions.count, "taken"))"
    }

    /// The chart as `export --format dot` draws it, with every state never entered and every
    /// transition never taken drawn red and bold, and a legend saying so.
    public func dot() -> String {
        var decoration = ChartDiagram.DOTDecoration()
        let mark = ["color=red", "fontcolor=red", "penwidth=2"]
        for s in items.states where !entered[s] { decoration.states[items.chart.stateIDs[s]] = mark }
        for t in items.transitions where !taken[t] {
            if let info = items.info[t] { decoration.transitions[.init(source: info.source, ordinal: info.ordinal)] = mark }
        }
        var text = diagram.dot(decoration: decoration)
        let legend = "  label=\(DOTWriter.quote("never exercised in red; " + summary));\n  labelloc=b;\n"
        if let end = text.range(of: "}", options: .backwards) { text.insert(contentsOf: legend, at: end.lowerBound) }
        return text
    }
}

/// Runs configuration-only traces as `trace` does. A null-datamodel machine is made once:
/// each later trace starts from start-up's recorded result and its state restored (the null
/// datamodel holds nothing else, and start-up always does the same); others get a fresh one.
private final class CoverageReplayer {
    let make: () throws -> SCXMLMachine
    private var machine: SCXMLMachine?
    private var recorder: MacrostepRecorder?
    private let reusable: Bool
    private var recorded: (configuration: [Int], entered: [Int], taken: [Int], key: MachineSearchKey)?

    init(make: @escaping () throws -> SCXMLMachine, first: SCXMLMachine) {
        self.make = make
        reusable = first.session.model is NullDatamodel && !first.document.allStates.contains { !$0.invokes.isEmpty }
        machine = first
        recorder = MacrostepRecorder(first.machine)
    }

    /// Start-up: the configuration `trace` prints, and what start-up (with the events it
    /// sent itself) entered and took.
    func start() throws -> (configuration: [Int], entered: [Int], taken: [Int]) {
        if reusable, let recorded, let machine {
            try machine.machine.restore(searchKey: recorded.key)
            _ = recorder?.take()
            return (recorded.configuration, recorded.entered, recorded.taken)
        }
        let fresh = try machine.flatMap { $0.machine.isStarted ? nil : $0 } ?? make()
        if fresh !== machine {
            machine = fresh
            recorder = MacrostepRecorder(fresh.machine)
        }
        try? fresh.machine.startStep()
        let configuration = fresh.machine.atomicStateIndices
        try? fresh.machine.processQueuedEvents()
        _ = fresh.runSessionWork()
        let (entered, taken) = recorder!.take()
        if reusable { recorded = (configuration, entered, taken, try fresh.machine.searchKey()) }
        return (configuration, entered, taken)
    }

    /// Sends `event` as `trace` does and returns the configuration `trace` prints.
    func step(_ event: String) -> [Int] {
        _ = try? machine!.machine.step(Event(event, payload: SCXMLEvent(name: event, type: .external, data: nil)))
        return machine!.machine.atomicStateIndices
    }

    /// Runs the events the chart sent itself and its invoked sessions' work; what the step
    /// entered and took.
    func settle() -> (entered: [Int], taken: [Int]) {
        try? machine!.machine.processQueuedEvents()
        _ = machine!.runSessionWork()
        return recorder!.take()
    }
}

/// A trace line that is not a trace line or does not fit the chart.
public struct SCXMLTraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The trace's name as given.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// What does not fit.
    public var message: String

    /// `FILE:LINE: error: MESSAGE`
    public var description: String { "\(file):\(line): error: \(message)" }
}
