import Foundation
import Statechart
import StatechartSCXML

/// `statechart trace --verbose`: collects each microstep from the machine's observers (state
/// changes, transitions taken, unhandled events) and the document's outgoing events
/// (``SCXMLMachine/onOutgoingEvent(_:)``), and writes each as a JSON line as soon as the next
/// happening shows it has ended, so memory holds one microstep, not a macrostep's (a runaway
/// macrostep runs up to `MachineOptions.maximumStepsPerMacrostep` microsteps). Each of a
/// microstep's lists keeps at most ``maximumListLength`` entries; the line then ends with
/// `"omitted": N`, the number of entries left out.
///
/// The observers report a microstep (W3C `microstep`) in its order: the states exited (each
/// after its `<onexit>` ran), the transitions taken (each before its content runs), the states
/// entered (each before its `<onentry>` runs). A new microstep therefore starts with an exit,
/// or an `<onexit>`'s event, after transitions or entries; or with a transition after entries,
/// on another event, or one already taken in this microstep (a microstep takes each at most
/// once). The observers do not mark the boundary itself, so one case reads as one microstep
/// when it was two: two microsteps in a row on two instances of the same event, each taking
/// only targetless transitions, different ones, with no `<onexit>` between.
final class MicrostepRecorder: @unchecked Sendable {
    // @unchecked: every access holds `lock`. Observers run wherever the machine runs a
    // macrostep (the trace's thread, or a thread delivering another session's event).

    /// The most entries of one list (states exited or entered, transitions, events raised or
    /// sent, errors) a microstep line holds.
    static let maximumListLength = 10_000

    struct Microstep {
        var event: String?
        var transitions: [(source: String, targets: [String], index: Int)] = []
        var exited: [String] = []
        var entered: [String] = []
        var raised: [String] = []
        var sent: [(event: String, target: String?, delay: Duration)] = []
        var errors: [(event: String, message: String)] = []
        /// Entries left out of the lists, past ``maximumListLength``.
        var omitted = 0
        /// Transition indexes taken in this microstep (all of them, for telling microsteps apart).
        var taken: Set<Int> = []

        var isPastExits: Bool { !transitions.isEmpty || !entered.isEmpty || !taken.isEmpty }

        /// Appends `item` to `list` unless it is full (then counts it as omitted).
        mutating func append<T>(_ item: T, to list: WritableKeyPath<Microstep, [T]>) {
            if self[keyPath: list].count < MicrostepRecorder.maximumListLength {
                self[keyPath: list].append(item)
            } else {
                omitted += 1
            }
        }
    }

    private let lock = NSLock()
    /// The microstep that can still grow.
    private var current: Microstep?
    private var number = 0
    private let output: @Sendable (String) -> Void

    /// Records `machine`'s microsteps and writes each line with `output` (called holding the
    /// recorder's lock, in order).
    init(_ machine: SCXMLMachine, output: @escaping @Sendable (String) -> Void) {
        self.output = output
        machine.machine.onStateChange { [self] state, entered in
            lock.withLock {
                if entered {
                    update(startingNew: { _ in false }) { $0.append(state, to: \.entered) }
                } else {
                    update(startingNew: { $0.isPastExits }) { $0.append(state, to: \.exited) }
                }
            }
        }
        machine.machine.onTransition { [self] record in
            lock.withLock {
                let event = record.event?.name
                update(startingNew: { step in
                    !step.entered.isEmpty || (!step.taken.isEmpty && step.event != event)
                        || step.taken.contains(record.index)
                }) { step in
                    if step.taken.isEmpty { step.event = event }
                    step.taken.insert(record.index)
                    step.append((record.source, record.targets, record.index), to: \.transitions)
                }
            }
        }
        machine.machine.onUnhandled { [self] event in
            lock.withLock {
                finish()
                self.output("{\"unhandled\": \(DataValue.quote(event.name))}")
            }
        }
        machine.onOutgoingEvent { [self] event in
            lock.withLock {
                let isExitContent: Bool
                if case .onExit = event.origin { isExitContent = true } else { isExitContent = false }
                update(startingNew: { isExitContent && $0.isPastExits }) { step in
                    switch event.kind {
                    case .raised: step.append(event.name, to: \.raised)
                    case .sent(let target, _, let delay): step.append((event.name, target, delay), to: \.sent)
                    case .error(let message): step.append((event.name, message), to: \.errors)
                    }
                }
            }
        }
    }

    /// Applies `change` to the open microstep, or to a new one (after writing the open one)
    /// when none is open or `startingNew` says this happening begins the next.
    private func update(startingNew: (Microstep) -> Bool, _ change: (inout Microstep) -> Void) {
        if let open = current, startingNew(open) { finish() }
        var step = current ?? Microstep()
        change(&step)
        current = step
    }

    /// Writes the open microstep, if any.
    private func finish() {
        guard let step = current else { return }
        current = nil
        number += 1
        output(Self.line(step, number: number))
    }

    /// Writes the microstep still open: the macrostep is over (its next happening will start
    /// a new microstep).
    func finishMicrostep() {
        lock.withLock { finish() }
    }

    /// `{"microstep": N, "event": ..., "transitions": [...], "exited": [...], "entered": [...],
    /// "raised": [...], "sent": [...], "errors": [...]}`: every key always present.
    static func line(_ step: Microstep, number: Int) -> String {
        let transitions = step.transitions.map {
            "{\"source\": \(DataValue.quote($0.source)), \"targets\": \(Loading.jsonList($0.targets))}"
        }
        let sent = step.sent.map {
            "{\"event\": \(DataValue.quote($0.event)), \"target\": \($0.target.map(DataValue.quote) ?? "null"), \"delay\": \(seconds($0.delay))}"
        }
        let errors = step.errors.map {
            "{\"event\": \(DataValue.quote($0.event)), \"message\": \(DataValue.quote($0.message))}"
        }
        return "{\"microstep\": \(number), \"event\": \(step.event.map(DataValue.quote) ?? "null"), "
            + "\"transitions\": [\(transitions.joined(separator: ","))], "
            + "\"exited\": \(Loading.jsonList(step.exited)), \"entered\": \(Loading.jsonList(step.entered)), "
            + "\"raised\": \(Loading.jsonList(step.raised)), \"sent\": [\(sent.joined(separator: ","))], "
            + "\"errors\": [\(errors.joined(separator: ","))]"
            + (step.omitted > 0 ? ", \"omitted\": \(step.omitted)}" : "}")
    }

    /// A duration in seconds as a JSON number: `5`, `0.25`.
    static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        if fraction == 0 { return String(whole) }
        return String(Double(whole) + Double(fraction) / 1e18)
    }
}
