import Foundation
import Statechart

/// The path search's view of an SCXML machine, run as `statechart trace` runs it: an event's
/// macrostep, the configuration a test expects, then the events the chart sent itself, then
/// the work of the sessions it invoked (``SCXMLMachine/Options/hostRunsSessions``: they run on
/// the search's thread, in order, so every run of a path is the same).
///
/// A null-datamodel machine without invocations is put back in a state by restoring its
/// configuration, history and queued events (all its state: the null datamodel has no
/// variables); any other machine is made afresh and the path replayed, so its datamodel and
/// its invoked sessions hold exactly what that path made, and its variables and those
/// sessions' states are part of the point.
final class SCXMLPathSubject: PathSearchSubject {
    /// A machine state as the search tells them apart. Pending delayed sends are not part of
    /// it: they never fire in a trace.
    struct Point: Hashable {
        var machine: MachineSearchKey
        var variables: [SCXMLSnapshot.Variable]
        /// The invoked sessions alive, depth first in start order, each with its depth.
        var invoked: [InvokedPoint]
    }

    /// One invoked session's state.
    struct InvokedPoint: Hashable {
        var depth: Int
        var machine: MachineSearchKey
        var variables: [SCXMLSnapshot.Variable]
    }

    let make: () throws -> SCXMLMachine
    let events: [SCXMLTestEvent]
    let chart: CompiledChart
    private let restores: Bool
    /// Whether the document has an `<invoke>`.
    private let invokes: Bool
    /// Whether conditions can read event data (the datamodel is not the null one).
    let readsData: Bool
    private var machine: SCXMLMachine
    private var recorder: MacrostepRecorder
    /// The events as `trace` sends them (external, with an SCXML payload), and their core ids.
    private let sendable: [Event]
    private let probes: [(event: Event, known: (id: UInt32, exact: Bool))]

    init(make: @escaping () throws -> SCXMLMachine, events: [SCXMLTestEvent]) throws {
        self.make = make
        self.events = events
        machine = try make()
        recorder = MacrostepRecorder(machine.machine)
        chart = machine.machine.chart
        invokes = machine.document.allStates.contains { !$0.invokes.isEmpty }
        readsData = !(machine.session.model is NullDatamodel)
        restores = !readsData && !invokes
        sendable = events.map { Event($0.name, payload: SCXMLEvent(name: $0.name, type: .external, data: $0.data)) }
        let probing = machine.machine
        probes = events.map { (Event($0.name), probing.coreEvent(named: $0.name)) }
    }

    var inputCount: Int { events.count }

    func start() throws -> PathSearchStep<Point> {
        try? machine.machine.startStep()
        return try complete()
    }

    func reach(_ point: Point, by path: [Int]) throws {
        if restores {
            try machine.machine.restore(searchKey: point.machine)
        } else {
            machine = try make()
            recorder = MacrostepRecorder(machine.machine)
            try? machine.machine.startStep()
            settle()
            for input in path {
                _ = try? machine.machine.step(sendable[input])
                settle()
            }
        }
        _ = recorder.take()
    }

    func mightHandle(_ input: Int) -> Bool {
        // An invoked session may take an event its chart does not (autoforward).
        invokes || machine.machine.mightHandle(probes[input].event, known: probes[input].known)
    }

    func send(_ input: Int) throws -> PathSearchStep<Point> {
        // A macrostep that stops (a runaway) leaves a legal configuration, which `trace`
        // prints too: the search goes on from there.
        _ = try? machine.machine.step(sendable[input])
        return try complete()
    }

    /// Runs what the macrostep left to run: the events the chart sent itself, then its
    /// invoked sessions' work.
    private func settle() {
        try? machine.machine.processQueuedEvents()
        _ = machine.runSessionWork()
    }

    /// The configuration `trace` prints now, then what is left to run, then the point.
    private func complete() throws -> PathSearchStep<Point> {
        let configuration = machine.machine.atomicStateIndices
        settle()
        let (entered, taken) = recorder.take()
        let key = try machine.machine.searchKey()
        let variables = restores ? [] : try Self.variables(of: machine)
        var invoked: [InvokedPoint] = []
        // Every session runs on this thread between sends (hostRunsSessions), so nothing else
        // touches their invocations now.
        func collect(_ session: SCXMLSession, depth: Int) throws {
            for invocation in session.invocations {
                invoked.append(InvokedPoint(depth: depth, machine: try invocation.child.machine.searchKey(),
                                            variables: try Self.variables(of: invocation.child)))
                try collect(invocation.child.session, depth: depth + 1)
            }
        }
        try collect(machine.session, depth: 1)
        return PathSearchStep(point: Point(machine: key, variables: variables, invoked: invoked), entered: entered,
                              taken: taken, configuration: configuration, active: key.active, halted: key.halted)
    }

    /// The datamodel's variables (none for the null datamodel).
    private static func variables(of machine: SCXMLMachine) throws -> [SCXMLSnapshot.Variable] {
        guard let model = machine.session.model as? SCXMLSnapshottingDatamodel, !(model is NullDatamodel) else { return [] }
        var variables: [SCXMLSnapshot.Variable] = []
        _ = try machine.machine.snapshot(encodingPayload: SnapshotPayload.encode,
                                         whileHeld: { variables = try model.snapshotVariables() })
        return variables
    }
}
