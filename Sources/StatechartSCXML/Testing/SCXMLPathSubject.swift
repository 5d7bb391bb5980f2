import Foundation
import Statechart

/// The path search's view of an SCXML machine, run as `statechart trace` runs it: an event's
/// macrostep, the configuration a test expects, then the events the chart sent itself.
///
/// A null-datamodel machine is put back in a state by restoring its snapshot (configuration,
/// history, queued events: all its state); a machine with variables is made afresh and the
/// path replayed, so its datamodel holds exactly what that path made.
final class SCXMLPathSubject: PathSearchSubject {
    /// A machine state: what tells states apart, and the snapshot that restores it.
    struct Point: Hashable {
        var active: [String]
        var history: [MachineSnapshot.HistoryRecord]
        var queued: [String]
        var halted: Bool
        var variables: [SCXMLSnapshot.Variable]
        /// Not compared: pending delayed sends never fire in a trace, and their `sendid`s
        /// count up across the search.
        var snapshot: MachineSnapshot

        static func == (a: Point, b: Point) -> Bool {
            a.active == b.active && a.history == b.history && a.queued == b.queued && a.halted == b.halted
                && a.variables == b.variables
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(active)
            hasher.combine(history)
            hasher.combine(variables.count)
        }
    }

    let make: () throws -> SCXMLMachine
    let events: [String]
    let chart: CompiledChart
    private let restores: Bool
    private var machine: SCXMLMachine
    private var recorder: MacrostepRecorder
    private let sendable: [Event]

    init(make: @escaping () throws -> SCXMLMachine, events: [String]) throws {
        self.make = make
        self.events = events
        machine = try make()
        recorder = MacrostepRecorder(machine.machine)
        chart = machine.machine.chart
        restores = machine.session.model is NullDatamodel
        sendable = events.map { Event($0, payload: SCXMLEvent(name: $0, type: .external, data: nil)) }
    }

    var inputCount: Int { events.count }

    func start() throws -> PathSearchStep<Point> {
        try? machine.machine.startStep()
        return try complete()
    }

    func reach(_ point: Point, by path: [Int]) throws {
        if restores {
            try machine.machine.restore(point.snapshot, decodingPayload: SnapshotPayload.decode)
        } else {
            machine = try make()
            recorder = MacrostepRecorder(machine.machine)
            try? machine.machine.startStep()
            try? machine.machine.processQueuedEvents()
            for input in path {
                _ = try? machine.machine.step(sendable[input])
                try? machine.machine.processQueuedEvents()
            }
        }
        _ = recorder.take()
    }

    func mightHandle(_ input: Int) -> Bool {
        machine.machine.canHandle(sendable[input], evaluatingGuards: false)
    }

    func send(_ input: Int) throws -> PathSearchStep<Point> {
        // A macrostep that stops (a runaway) leaves a legal configuration, which `trace`
        // prints too: the search goes on from there.
        _ = try? machine.machine.step(sendable[input])
        return try complete()
    }

    /// The configuration `trace` prints now, then the queued events run, then the point.
    private func complete() throws -> PathSearchStep<Point> {
        let configuration = machine.machine.atomicStateIndices
        try? machine.machine.processQueuedEvents()
        let (entered, taken) = recorder.take()
        var variables: [SCXMLSnapshot.Variable] = []
        let model = machine.session.model as? SCXMLSnapshottingDatamodel
        let snapshot = try machine.machine.snapshot(encodingPayload: SnapshotPayload.encode, whileHeld: {
            if let model { variables = try model.snapshotVariables() }
        })
        let point = Point(active: snapshot.activeStates, history: snapshot.history, queued: snapshot.internalEvents.map(\.name),
                          halted: snapshot.isFinished, variables: variables, snapshot: snapshot)
        return PathSearchStep(point: point, entered: entered, taken: taken, configuration: configuration,
                              halted: snapshot.isFinished)
    }
}
