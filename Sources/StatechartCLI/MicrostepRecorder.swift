import Foundation
import Statechart
import StatechartSCXML

/// `statechart trace --verbose`: collects each microstep from the machine's observers (state
/// changes, transitions taken, unhandled events) and the document's outgoing events
/// (``SCXMLMachine/onOutgoingEvent(_:)``), and writes them as JSON lines.
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

    struct Microstep {
        var event: String?
        var transitions: [(source: String, targets: [String], index: Int)] = []
        var exited: [String] = []
        var entered: [String] = []
        var raised: [String] = []
        var sent: [(event: String, target: String?, delay: Duration)] = []
        var errors: [(event: String, message: String)] = []

        var isPastExits: Bool { !transitions.isEmpty || !entered.isEmpty }
    }

    enum Entry {
        case microstep(Microstep)
        case unhandled(String)
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// Whether the last entry is a microstep that can still grow.
    private var open = false
    private var number = 0

    init(_ machine: SCXMLMachine) {
        machine.machine.onStateChange { [self] state, entered in
            lock.withLock {
                if entered {
                    update(startingNew: false) { $0.entered.append(state) }
                } else {
                    update(startingNew: { $0.isPastExits }) { $0.exited.append(state) }
                }
            }
        }
        machine.machine.onTransition { [self] record in
            lock.withLock {
                let event = record.event?.name
                update(startingNew: { step in
                    !step.entered.isEmpty || (!step.transitions.isEmpty && step.event != event)
                        || step.transitions.contains { $0.index == record.index }
                }) { step in
                    if step.transitions.isEmpty { step.event = event }
                    step.transitions.append((record.source, record.targets, record.index))
                }
            }
        }
        machine.machine.onUnhandled { [self] event in
            lock.withLock {
                entries.append(.unhandled(event.name))
                open = false
            }
        }
        machine.onOutgoingEvent { [self] event in
            lock.withLock {
                let isExitContent: Bool
                if case .onExit = event.origin { isExitContent = true } else { isExitContent = false }
                update(startingNew: { isExitContent && $0.isPastExits }) { step in
                    switch event.kind {
                    case .raised: step.raised.append(event.name)
                    case .sent(let target, _, let delay): step.sent.append((event.name, target, delay))
                    case .error(let message): step.errors.append((event.name, message))
                    }
                }
            }
        }
    }

    /// Applies `change` to the open microstep, or to a new one when none is open or
    /// `startingNew` says this happening begins the next.
    private func update(startingNew: (Microstep) -> Bool, _ change: (inout Microstep) -> Void) {
        if open, case .microstep(var step) = entries[entries.count - 1], !startingNew(step) {
            change(&step)
            entries[entries.count - 1] = .microstep(step)
            return
        }
        var step = Microstep()
        change(&step)
        entries.append(.microstep(step))
        open = true
    }

    private func update(startingNew: Bool, _ change: (inout Microstep) -> Void) {
        update(startingNew: { _ in startingNew }, change)
    }

    /// The JSON lines of everything recorded since the last call, in order; a macrostep's
    /// next happening starts a new microstep.
    func takeLines() -> [String] {
        lock.withLock {
            defer {
                entries.removeAll()
                open = false
            }
            return entries.map { entry in
                switch entry {
                case .unhandled(let name):
                    return "{\"unhandled\": \(DataValue.quote(name))}"
                case .microstep(let step):
                    number += 1
                    return Self.line(step, number: number)
                }
            }
        }
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
            + "\"errors\": [\(errors.joined(separator: ","))]}"
    }

    /// A duration in seconds as a JSON number: `5`, `0.25`.
    static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        if fraction == 0 { return String(whole) }
        return String(Double(whole) + Double(fraction) / 1e18)
    }
}
