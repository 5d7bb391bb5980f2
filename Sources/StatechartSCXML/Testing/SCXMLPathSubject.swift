import Foundation
import Statechart

/// The path search's view of an SCXML machine, run as `statechart trace` runs it: an event's
/// macrostep, the configuration a test expects, then the events the chart sent itself.
///
/// A null-datamodel machine is put back in a state by restoring its configuration, history
/// and queued events (all its state: the null datamodel has no variables); a machine with
/// variables is made afresh and the path replayed, so its datamodel holds exactly what that
/// path made, and its variables are part of the point.
final class SCXMLPathSubject: PathSearchSubject {
    /// A machine state as the search tells them apart. Pending delayed sends are not part of
    /// it: they never fire in a trace.
    struct Point: Hashable {
        var machine: MachineSearchKey
        var variables: [SCXMLSnapshot.Variable]
    }

    let make: () throws -> SCXMLMachine
    let events: [String]
    let chart: CompiledChart
    private let restores: Bool
    private var machine: SCXMLMachine
    private var recorder: MacrostepRecorder
    /// The events as `trace` sends them (external, with an SCXML payload), and their core ids.
    private let sendable: [Event]
    private let probes: [(event: Event, known: (id: UInt32, exact: Bool))]

    init(make: @escaping () throws -> SCXMLMachine, events: [String]) throws {
        self.make = make
        self.events = events
        machine = try make()
        recorder = MacrostepRecorder(machine.machine)
        chart = machine.machine.chart
        restores = machine.session.model is NullDatamodel
        sendable = events.map { Event($0, payload: SCXMLEvent(name: $0, type: .external, data: nil)) }
        let probing = machine.machine
        probes = events.map { (Event($0), probing.coreEvent(named: $0)) }
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
            try? machine.machine.processQueuedEvents()
            for input in path {
                _ = try? machine.machine.step(sendable[input])
                try? machine.machine.processQueuedEvents()
            }
        }
        _ = recorder.take()
    }

    func mightHandle(_ input: Int) -> Bool {
        machine.machine.mightHandle(probes[input].event, known: probes[input].known)
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
        let key = try machine.machine.searchKey()
        var variables: [SCXMLSnapshot.Variable] = []
        if !restores, let model = machine.session.model as? SCXMLSnapshottingDatamodel {
            _ = try machine.machine.snapshot(encodingPayload: SnapshotPayload.encode,
                                             whileHeld: { variables = try model.snapshotVariables() })
        }
        return PathSearchStep(point: Point(machine: key, variables: variables), entered: entered, taken: taken,
                              configuration: configuration, halted: key.halted)
    }
}
