import CBenchHost
import CStateCore
import Foundation
import Statechart
import StatechartSCXML

/// One way of dispatching a chart's event cycle: a started machine (or loop) plus ways to read
/// back where it is and what it ran.
///
/// ```swift
/// let runner = try Runner.typed(.turnstile)
/// try runner.dispatch(1_000)                    // 1,000 events of the cycle
/// runner.configuration()                        // ["locked"]
/// ```
public final class Runner {
    /// What is measured ("C core", "Swift typed", ...).
    public let label: String
    /// Dispatches `count` events of the cycle, continuing where the previous call stopped.
    public let dispatch: (Int) throws -> Void
    /// The active atomic states, sorted (read back after each timed loop).
    public let configuration: () -> [String]
    /// Guard and action calls since the last ``resetCounts``; `nil` when not counted.
    public let counts: () -> (guards: Int?, actions: Int?)
    public let resetCounts: () -> Void

    init(label: String, dispatch: @escaping (Int) throws -> Void, configuration: @escaping () -> [String],
         counts: @escaping () -> (guards: Int?, actions: Int?), resetCounts: @escaping () -> Void) {
        self.label = label
        self.dispatch = dispatch
        self.configuration = configuration
        self.counts = counts
        self.resetCounts = resetCounts
    }
}

// MARK: - Swift typed API

extension Runner {
    /// A ``StateMachine`` of the chart written with the typed DSL, sent the typed events.
    public static func typed(_ chart: BenchChart) throws -> Runner {
        let names = try chart.events()
        switch chart {
        case .turnstile:
            return try typed(turnstileChart(), names, counters: nil)
        case .hierarchical:
            return try typed(hierarchicalChart(), names, counters: nil)
        case .deep:
            return try typed(deepChart(), names, counters: nil)
        case .wide:
            return try typed(wideChart(), names, counters: nil)
        case .guarded:
            let counters = CallCounters()
            return try typed(guardedChart(counting: counters), names, counters: counters)
        case .large:
            throw BenchError("the large chart has no typed version")
        }
    }

    /// The guarded chart whose every guard also reads, and every action also writes, the
    /// machine's typed context (``guardedContextChart(counting:)``).
    public static func typedWithContext() throws -> Runner {
        let counters = CallCounters()
        return try typed(guardedContextChart(counting: counters), try BenchChart.guarded.events(),
                         context: GuardedTally(), label: "Swift typed, context", counters: counters)
    }

    /// Specialised for each chart's concrete types (called with them from this module), so the
    /// loop is what a user's own `machine.send(.coin)` compiles to.
    static func typed<S, E: RawRepresentable<String>>(_ chart: TypedChart<S, E>, _ names: [String],
                                                      counters: CallCounters?) throws -> Runner where E.Context == NoContext {
        try typed(chart, names, context: NoContext(), label: "Swift typed", counters: counters)
    }

    static func typed<S, E: RawRepresentable<String>>(_ chart: TypedChart<S, E>, _ names: [String], context: E.Context,
                                                      label: String, counters: CallCounters?) throws -> Runner {
        let machine = StateMachine(chart, context: context)
        try machine.start()
        let sequence: [E] = try names.map {
            guard let event = E(rawValue: $0) else { throw BenchError("\(chart.name): no event '\($0)'") }
            return event
        }
        var position = 0
        return Runner(
            label: label,
            dispatch: { count in
                var j = position
                for _ in 0..<count {
                    try machine.send(sequence[j])
                    j += 1
                    if j == sequence.count { j = 0 }
                }
                position = j
            },
            configuration: { machine.machine.configuration.sorted() },
            counts: { (counters?.guards, counters?.actions) },
            resetCounts: {
                counters?.guards = 0
                counters?.actions = 0
            })
    }
}

// MARK: - Swift confined machine

extension Runner {
    /// A ``LocalStateMachine`` (not `Sendable`: its sends take no lock) of the typed chart.
    public static func confined(_ chart: BenchChart) throws -> Runner {
        let names = try chart.events()
        switch chart {
        case .turnstile:
            return try confined(turnstileChart(), names, counters: nil)
        case .hierarchical:
            return try confined(hierarchicalChart(), names, counters: nil)
        case .deep:
            return try confined(deepChart(), names, counters: nil)
        case .wide:
            return try confined(wideChart(), names, counters: nil)
        case .guarded:
            let counters = CallCounters()
            return try confined(guardedChart(counting: counters), names, counters: counters)
        case .large:
            throw BenchError("the large chart has no typed version")
        }
    }

    /// Specialised like ``typed(_:_:counters:)``.
    static func confined<S, E: RawRepresentable<String>>(_ chart: TypedChart<S, E>, _ names: [String],
                                                         counters: CallCounters?) throws -> Runner where E.Context == NoContext {
        let machine = LocalStateMachine(chart)
        try machine.start()
        let sequence: [E] = try names.map {
            guard let event = E(rawValue: $0) else { throw BenchError("\(chart.name): no event '\($0)'") }
            return event
        }
        var position = 0
        return Runner(
            label: "Swift confined",
            dispatch: { count in
                var j = position
                for _ in 0..<count {
                    try machine.send(sequence[j])
                    j += 1
                    if j == sequence.count { j = 0 }
                }
                position = j
            },
            configuration: { machine.configuration.map { "\($0)" }.sorted() },
            counts: { (counters?.guards, counters?.actions) },
            resetCounts: {
                counters?.guards = 0
                counters?.actions = 0
            })
    }
}

// MARK: - SCXML

extension Runner {
    /// An ``SCXMLMachine`` loaded from the chart's document, sent the events as handles resolved
    /// once (`machine.event("coin")`), the way a loop that sends the same few events is written.
    public static func scxml(_ chart: BenchChart) throws -> Runner {
        let (machine, names, logs) = try startedSCXML(chart)
        let handles = try names.map { try machine.event($0) }
        var position = 0
        return Runner(
            label: "SCXML",
            dispatch: { count in
                var j = position
                for _ in 0..<count {
                    try machine.send(handles[j])
                    j += 1
                    if j == handles.count { j = 0 }
                }
                position = j
            },
            configuration: { machine.configuration.sorted() },
            counts: { (nil, logs.actions) },
            resetCounts: { logs.actions = 0 })
    }

    /// The same machine sent the events by name (`machine.send("coin")`): each send looks the
    /// name up in the chart's event table.
    public static func scxmlByName(_ chart: BenchChart) throws -> Runner {
        let (machine, names, logs) = try startedSCXML(chart)
        var position = 0
        return Runner(
            label: "SCXML, by name",
            dispatch: { count in
                var j = position
                for _ in 0..<count {
                    try machine.send(names[j])
                    j += 1
                    if j == names.count { j = 0 }
                }
                position = j
            },
            configuration: { machine.configuration.sorted() },
            counts: { (nil, logs.actions) },
            resetCounts: { logs.actions = 0 })
    }

    /// A started machine of the chart's document, its event cycle, and its `<log>`s counted
    /// (the chart's actions).
    static func startedSCXML(_ chart: BenchChart) throws -> (SCXMLMachine, [String], CallCounters) {
        let names = try chart.events()
        let machine = try SCXMLMachine(contentsOf: chart.documentURL)
        let logs = CallCounters()
        machine.onLog { _, _ in logs.actions += 1 }
        try machine.start()
        return (machine, names, logs)
    }
}

// MARK: - C core

/// A chart compiled from its SCXML document, with what the C host needs: the guard table and
/// the event ids of the cycle. Keeps the compiled chart (which owns the tables) alive.
public final class CoreChart: @unchecked Sendable {
    // @unchecked: immutable after init; the buffers are never written again.
    public let chart: BenchChart
    public let compiled: CompiledChart
    /// guardStates[g]: the state whose activity guard g (an In() condition) tests.
    public let guardStates: UnsafeMutableBufferPointer<sc_id>
    public let guardCount: Int

    public init(_ chart: BenchChart) throws {
        self.chart = chart
        let machine = try SCXMLMachine(contentsOf: chart.documentURL)
        compiled = machine.machine.chart
        let states = try Self.guardStates(document: machine.document, compiled: compiled)
        guardCount = states.count
        guardStates = .allocate(capacity: max(states.count, 1))
        _ = guardStates.initialize(from: states)
    }

    deinit { guardStates.deallocate() }

    public var tables: UnsafePointer<sc_chart> { compiled.tables }

    /// The interned id of every event of the chart's cycle.
    public func eventIDs() throws -> [sc_id] {
        try chart.events().map { name in
            guard let id = compiled.eventNames.firstIndex(of: name) else {
                throw BenchError("\(chart.rawValue): the chart does not know event '\(name)'")
            }
            return sc_id(id)
        }
    }

    /// Maps each guard id to the state its `In('id')` condition tests, by finding the
    /// transition that carries the guard in the document (same source state, same position).
    static func guardStates(document: SCXMLDocument, compiled: CompiledChart) throws -> [sc_id] {
        let tables = compiled.tables.pointee
        var byID: [String: SCXMLState] = [:]
        for state in document.allStates { byID[state.id] = state }
        var result: [sc_id] = []
        for t in 0..<Int(tables.transition_count) {
            let transition = tables.transitions[t]
            guard transition.guard != SC_NONE else { continue }
            let source = Int(transition.source)
            let position = t - Int(tables.states[source].first_transition)
            guard let state = byID[compiled.stateIDs[source]], position < state.transitions.count,
                  let cond = state.transitions[position].cond else {
                throw BenchError("transition \(t) has a guard the document does not show")
            }
            guard cond.hasPrefix("In('"), cond.hasSuffix("')"),
                  let index = compiled.index(of: String(cond.dropFirst(4).dropLast(2))) else {
                throw BenchError("guard \(cond): benchmark charts only use In('state') conditions")
            }
            let id = Int(transition.guard)
            if result.count <= id { result += Array(repeating: SC_NONE, count: id + 1 - result.count) }
            result[id] = sc_id(index)
        }
        return result
    }
}

/// A started C machine with counting callbacks (bench_host.c), freed with the runner.
final class CoreHandle {
    let chart: CoreChart
    let core = UnsafeMutablePointer<bench_core>.allocate(capacity: 1)
    let events: UnsafeMutableBufferPointer<sc_id>

    init(_ chart: CoreChart) throws {
        self.chart = chart
        let ids = try chart.eventIDs()
        events = .allocate(capacity: ids.count)
        _ = events.initialize(from: ids)
        let status = bench_core_open(core, chart.tables, chart.guardStates.baseAddress,
                                     UInt32(chart.guardCount))
        guard status == SC_OK else {
            events.deallocate()
            core.deallocate()
            throw BenchError("\(chart.chart.rawValue): the C machine did not start: \(String(cString: sc_status_text(status)))")
        }
    }

    deinit {
        bench_core_close(core)
        core.deallocate()
        events.deallocate()
    }

    func configuration() -> [String] {
        let machine = core.pointee.machine
        let count = sc_machine_active_states(machine, true, nil, 0)
        var ids = [sc_id](repeating: 0, count: Int(count))
        _ = sc_machine_active_states(machine, true, &ids, count)
        return ids.map { chart.compiled.stateIDs[Int($0)] }.sorted()
    }
}

extension Runner {
    /// The C core dispatching the chart compiled from its document, through bench_host.c's loop.
    public static func core(_ chart: CoreChart) throws -> Runner {
        let handle = try CoreHandle(chart)
        let length = UInt32(handle.events.count)
        return Runner(
            label: "C core",
            dispatch: { count in
                let unhandled = bench_core_run(handle.core, handle.events.baseAddress, length, UInt64(count))
                if unhandled != 0 { throw BenchError("C core: \(unhandled) events not handled") }
            },
            configuration: { handle.configuration() },
            counts: { (Int(handle.core.pointee.guard_calls), Int(handle.core.pointee.action_calls)) },
            resetCounts: {
                handle.core.pointee.guard_calls = 0
                handle.core.pointee.action_calls = 0
            })
    }
}
