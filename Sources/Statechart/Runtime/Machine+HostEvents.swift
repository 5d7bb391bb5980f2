import CStateCore

/// Services for front ends built on ``Machine`` inside this package (the SCXML runtime): events
/// sent as bare interned ids tagged with host flags, the flags seen from an action, and a
/// callback when the machine halts. None of them is public API.
extension Machine {
    /// Sends the payload-free event `name`, tagged with `flags` (see ``ActionContext/eventFlags``),
    /// when the chart interns `name` exactly: no payload slot and no allocation. Returns `nil`,
    /// sending nothing, when the chart does not mention the name exactly (the caller then sends
    /// it with whatever payload reproduces it).
    @usableFromInline
    package func sendInterned(_ name: String, flags: UInt32) throws -> SendOutcome? {
        let id: UInt32
        if let found = chart.events.exactID(name) {
            id = found
        } else {
            let (found, exact) = chart.events.lookup(name)
            guard exact else { return nil }
            id = found
        }
        return try send(core: sc_event(id: id, flags: flags, data: 0))
    }

    /// The id of `name` when the chart interns it exactly, for ``send(coreEventID:flags:)``.
    package func internedEventID(_ name: String) -> UInt32? {
        let (id, exact) = chart.events.lookup(name)
        return exact ? id : nil
    }

    /// Sends the interned event `id` without payload, tagged with `flags`: the typed send
    /// (``send(coreEventID:flags:through:)``) through this machine's lock, inlined into the
    /// caller like it, so an SCXML event handle's send costs what a typed event's does.
    @inlinable @inline(__always)
    package func send(coreEventID id: UInt32, flags: UInt32) throws -> SendOutcome {
        try send(coreEventID: id, flags: flags, through: lock)
    }

    /// Whether another thread may be waiting to use this machine: a background worker that
    /// keeps taking the machine (a session draining its mailbox) lets it go first.
    package var hasWaitingThreads: Bool { lock.hasWaiters }

    /// The index of state `id` in the compiled chart (document order), or `nil`.
    package func stateIndex(of id: String) -> Int? { chart.stateIndex[id] }

    /// Whether the state at `index` is active, read without taking the machine: only from the
    /// machine's own callbacks (guards, actions, the external-event gate), which hold it.
    package func isActiveWhileHeld(stateAt index: Int) -> Bool { runtime.isActive(index: index) }

    /// Calls `body` with the event of each transition taken for an event (eventless transitions
    /// are skipped), before the transition's actions run, with the machine held: for hosts whose
    /// datamodel must see every processed event (SCXML's `_event`) even when the transitions it
    /// enables run no content of their own.
    package func onTransitionEvent(_ body: @escaping @Sendable (ActionContext) -> Void) {
        access {
            _ = runtime.observers.add(transition: { _, event in
                guard event.raw.id != SC_NONE else { return }
                withUnsafePointer(to: event.raw) { body(ActionContext(event: $0)) }
            })
        }
    }

    /// Calls `body` once, when the machine halts (reaches a top-level final state or is stopped)
    /// or is deallocated; after the macrostep that halted it, with the machine held. Never
    /// called when the machine has already halted.
    package func onHalt(_ body: @escaping @Sendable () -> Void) {
        access {
            guard !runtime.haltReported else { return }
            let token = runtime.observers.token()
            runtime.observers.add(finisher: body, token: token)
        }
    }
}

extension ActionContext {
    /// The host flags of the current event (`sc_event.flags`): 0 for events sent through the
    /// public API and for the events the core raises (done events); what
    /// ``Machine/send(coreEventID:flags:)`` set otherwise.
    package var eventFlags: UInt32 { coreEvent.flags }

    /// The current event's interned id when it carries no payload (`sc_event.data == 0`): such an
    /// event is its name and ``eventFlags`` alone. `nil` without an event, with a payload, or for
    /// a name the chart does not intern.
    package var payloadFreeEventID: UInt32? {
        let event = coreEvent
        return event.data == 0 && event.id != SC_NONE && event.id != SC_EVENT_UNKNOWN ? event.id : nil
    }

    /// The name of the event ``payloadFreeEventID`` gave `id` for, without making an ``Event``.
    package func payloadFreeEventName(_ id: UInt32) -> String {
        checked.chart.eventNames[Int(id)]
    }
}
