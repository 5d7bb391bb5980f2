import Foundation
import Statechart

/// Events between sessions. A session never sends synchronously into another one (that could
/// deadlock two machines waiting for each other): other sessions, the BasicHTTP server and
/// timers append to the receiver's mailbox and ask its worker queue to "poke" its machine.
///
/// The mailbox keeps arrival order with the session's own sends: the machine's external queue
/// always holds the oldest events and the mailbox the newest, because everything the mailbox
/// holds moves to the external queue (in order) before an external event is processed and
/// before the session queues an event for itself.
extension SCXMLSession {
    /// An event telling the machine to take its mailbox's events; dropped by the gate.
    struct Poke: Sendable {}
    /// A `<send>` to another target whose delay has passed: delivered by the gate, then dropped.
    struct DeferredSend: Sendable {
        var event: SCXMLEvent
        var target: String?
        var type: String
    }

    static let pokeName = "scxml.runtime.poke"
    static let deferredName = "scxml.runtime.deferred"

    /// Delivers an external event from another thread (another session, the BasicHTTP server):
    /// queued in arrival order, processed once the machine is free. Never blocks. An event from
    /// an invoked `child` is dropped once that invocation has been cancelled (SCXML 6.4: events
    /// that arrive after the invoking state was exited are not processed; those that arrived
    /// before still are).
    func deliver(_ event: SCXMLEvent, from child: SCXMLSession? = nil) {
        let queued = mailbox.withLock { events -> Bool in
            if let child, child.cancelled.load(ordering: .acquiring) { return false }
            events.append(event)
            return true
        }
        if queued { worker.async { [weak self] in self?.poke() } }
    }

    /// Makes the machine process its mailbox; runs on the worker queue (holding no machine).
    func poke() {
        guard let machine, machine.isStarted else { return }
        do {
            try machine.send(Event(Self.pokeName, payload: Poke()))
        } catch {
            // A runaway macrostep: the machine reports it to its error observers' equivalent
            // only for delayed events; log it through the document's log hook.
            hooks.withLock { $0.log }?("error", "\(error)")
        }
    }

    /// Queues an event for this session itself, after everything that arrived before it. Gate held.
    func sendToSelf(_ event: SCXMLEvent, ctx: ActionContext) {
        moveMailbox(ctx)
        ctx.send(Event(event.name, payload: event))
    }

    /// Moves the mailbox's events to the machine's external queue, in order. Gate held.
    func moveMailbox(_ ctx: ActionContext) {
        let arrived = mailbox.withLock { events -> [SCXMLEvent] in
            defer { events.removeAll() }
            return events
        }
        for event in arrived { ctx.send(Event(event.name, payload: event)) }
    }

    /// The machine's external-event gate (Machine.setExternalEventGate): takes the mailbox,
    /// performs deferred sends, ignores events of cancelled invocations, and runs `<finalize>`
    /// and `autoforward` before the event's transitions (the W3C algorithm's mainEventLoop).
    func admit(_ ctx: ActionContext) -> Bool {
        moveMailbox(ctx)
        guard let event = ctx.event else { return true }
        if event.payload is Poke { return false }
        if let deferred = event.payload as? DeferredSend {
            do {
                try deliver(deferred.event, to: deferred.target, type: deferred.type, ctx: ctx, immediate: true)
            } catch {
                let failure = error as? SendFailure
                    ?? SendFailure(name: "error.execution", message: "\(error)", sendID: deferred.event.sendID)
                sendToSelf(SCXMLEvent(name: failure.name, type: .platform, sendID: failure.sendID,
                                      data: .string(failure.message)), ctx: ctx)
            }
            return false
        }
        guard let scxml = event.payload as? SCXMLEvent else { return true }
        return admitInvocationEvent(scxml, ctx: ctx)
    }
}
