import Foundation
import Statechart

/// Events between sessions. A session never sends synchronously into another one (that could
/// deadlock two machines waiting for each other): other sessions, the BasicHTTP server and
/// timers append to the receiver's mailbox and ask its worker queue to "poke" its machine.
///
/// The mailbox keeps arrival order with the session's own sends: the machine's external queue
/// always holds the oldest events and the mailbox the newest, because everything the mailbox
/// holds moves to the external queue (in order) when a poke is processed and before the
/// session queues an event for itself. (Other external events do not take the mailbox: its
/// events would land behind them anyway, and each delivery has its poke.)
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
    /// queued in arrival order, processed once the machine is free. Never blocks. Returns
    /// `false`, queueing nothing, when the mailbox already holds
    /// ``SCXMLMachine/Options/maximumMailboxEvents``: the sender reports that (a `<send>`
    /// raises `error.communication`), so no event is lost silently.
    @discardableResult
    func deliver(_ event: SCXMLEvent) -> Bool {
        deliver([event], from: nil) != .full
    }

    enum Delivery { case queued, full, cancelled }

    /// Delivers events together, all or none. Events from an invoked `child` are dropped once
    /// that invocation has been cancelled (SCXML 6.4: events that arrive after the invoking
    /// state was exited are not processed; those that arrived before still are).
    @discardableResult
    func deliver(_ batch: [SCXMLEvent], from child: SCXMLSession?) -> Delivery {
        let limit = options.maximumMailboxEvents
        let delivery = mailbox.withLock { events -> Delivery in
            if let child, child.cancelled.load(ordering: .acquiring) { return .cancelled }
            guard events.count + batch.count <= limit else { return .full }
            events.append(contentsOf: batch)
            return .queued
        }
        if delivery == .queued { schedule { [weak self] in self?.poke() } }
        return delivery
    }

    /// The error text for a full mailbox.
    var mailboxFullMessage: String {
        "the mailbox of session \(sessionID) is full: \(options.maximumMailboxEvents) events are waiting (SCXMLMachine.Options.maximumMailboxEvents)"
    }

    /// Sends an event to the invoking session once the macrostep sending it has completed, with
    /// the others that macrostep sends: a child's last events and its `done.invoke` reach the
    /// parent together, before the parent can react to the first of them by cancelling it.
    func sendToParent(_ event: SCXMLEvent) {
        let first = outbox.withLock { events -> Bool in
            events.append(event)
            return events.count == 1
        }
        if first { schedule { [weak self] in self?.flushOutbox() } }
    }

    /// Runs on the worker queue, holding no machine.
    private func flushOutbox() {
        _ = machine?.isStarted      // reading through the machine waits for its macrostep to complete
        let events = outbox.withLock { events -> [SCXMLEvent] in
            defer { events.removeAll() }
            return events
        }
        guard !events.isEmpty, let parent = parent?.session else { return }
        if parent.deliver(events, from: self) == .full {
            // No `<send>` waits for these: the log hook reports them, as poke() reports errors.
            hooks.withLock { $0.log }?("error", "\(events.count) events from invoked session \(sessionID) were not delivered: \(parent.mailboxFullMessage)")
        }
    }

    /// Makes the machine process its mailbox; runs on the worker queue (holding no machine).
    ///
    /// Each poke processes at most ``eventsPerPoke`` of the events the mailbox holds (and what
    /// those events cause), then lets the machine go: events arriving meanwhile have pokes of
    /// their own, and events left behind another poke. So a
    /// chart that keeps its children busy forever (a state that re-invokes them on every
    /// `done.invoke`) still lets the host in between two pokes; and a poke first steps aside
    /// while a host thread waits for the machine (bounded: at most about ten milliseconds), since
    /// the machine's lock would otherwise let this thread take it straight back.
    func poke() {
        guard let machine else { return }
        var waited = 0
        while machine.hasWaitingThreads && waited < 500 {
            usleep(20)
            waited += 1
        }
        guard machine.isStarted else { return }
        installGate()       // it drops the poke and takes the mailbox
        do {
            try machine.send(Event(Self.pokeName, payload: Poke()))
        } catch {
            // A runaway macrostep. No caller waits for this send: the log hook reports it.
            hooks.withLock { $0.log }?("error", "\(error)")
        }
    }

    /// Queues an event for this session itself, after everything that arrived before it. Machine locked.
    func sendToSelf(_ event: SCXMLEvent, ctx: ActionContext) {
        moveMailbox(ctx)
        ctx.send(Event(event.name, payload: event))
    }

    /// How many mailbox events one poke takes. Events from invoked sessions can multiply (a
    /// state re-entered on every `done.invoke` starts children whose answers arrive before they
    /// are cancelled, which SCXML says are still processed), so a poke taking everything could
    /// hold the machine for as long as the chart keeps that up. A poke that leaves events behind
    /// pokes again; the order of events does not change.
    static let eventsPerPoke = 8

    /// Moves the mailbox's oldest events (at most `limit`) to the machine's external queue, in
    /// order, and says whether events were left behind. Machine locked.
    @discardableResult
    func moveMailbox(_ ctx: ActionContext, limit: Int = .max) -> Bool {
        let (arrived, left) = mailbox.withLock { events -> ([SCXMLEvent], Bool) in
            if events.count <= limit {
                defer { events.removeAll() }
                return (events, false)
            }
            let taken = Array(events.prefix(limit))
            events.removeFirst(limit)
            return (taken, true)
        }
        if !arrived.isEmpty { installGate() }   // for <finalize>, and before any poke
        for event in arrived { ctx.send(Event(event.name, payload: event)) }
        return left
    }

    /// The machine's external-event gate (Machine.setExternalEventGate): takes the mailbox,
    /// drops pokes, performs deferred sends, and runs `<finalize>` and `autoforward` before the
    /// event's transitions (the W3C algorithm's mainEventLoop).
    func admit(_ ctx: ActionContext) -> Bool {
        guard let event = ctx.event else { return true }
        if event.payload is Poke {
            if moveMailbox(ctx, limit: Self.eventsPerPoke) { schedule { [weak self] in self?.poke() } }
            return false
        }
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
        let scxml = event.payload as? SCXMLEvent
            ?? SCXMLEvent(name: event.name, type: .external, data: event.payload as? DataValue)
        return admitInvocationEvent(scxml, ctx: ctx)
    }
}
