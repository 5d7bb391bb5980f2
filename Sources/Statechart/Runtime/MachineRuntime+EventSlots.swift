import CStateCore

/// Events between Swift and the core: an event the core cannot carry in its id alone (a payload,
/// a typed value, a name the chart does not mention) waits in a slot of `slots`, which the core
/// event's `data` word references until the core releases it.
extension MachineRuntime {
    /// The core's view of `event`: its interned id, plus a payload slot when the id alone
    /// does not reproduce the event (payload, typed value, or a name the chart does not mention).
    ///
    /// - Parameter known: the event's id and exactness when the caller has already looked it up
    ///   (typed machines keep a table), so no string work is needed.
    func coreEvent(_ event: Event, typed: (any Sendable)? = nil,
                   known: (id: UInt32, exact: Bool)? = nil) -> sc_event {
        let (id, exact) = known ?? chart.events.lookup(event.name)
        if exact && event.payload == nil && typed == nil { return sc_event(id: id, flags: 0, data: 0) }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(event: event, typed: typed)
        } else {
            slot = slots.count
            slots.append(Slot(event: event, typed: typed))
        }
        if !releasesSlots { installRelease() }
        return sc_event(id: id, flags: 0, data: UInt(slot + 1))
    }

    /// The Swift event for a core event; valid while the core holds the event.
    func swiftEvent(_ event: UnsafePointer<sc_event>?) -> Event? {
        guard let event else { return nil }
        return swiftEvent(event.pointee)
    }

    func swiftEvent(_ event: sc_event) -> Event? {
        if event.id == SC_NONE { return nil }
        if event.data != 0, let stored = slots[Int(event.data) - 1] { return stored.event }
        if event.id == SC_EVENT_UNKNOWN { return nil }
        return Event(chart.eventNames[Int(event.id)])
    }

    /// The typed value attached to a core event's slot, if any; valid while the core holds the event.
    func typedValue(_ event: sc_event) -> (any Sendable)? {
        guard event.data != 0 else { return nil }
        return slots[Int(event.data) - 1]?.typed
    }

    func observed(_ event: sc_event) -> ObservedEvent {
        ObservedEvent(event: swiftEvent(event), raw: event, typed: typedValue(event))
    }

    /// The Swift event and typed value for an event still owned by the core, for snapshots.
    func slotContents(_ event: sc_event) -> (event: Event, typed: (any Sendable)?)? {
        guard let swift = swiftEvent(event) else { return nil }
        return (swift, typedValue(event))
    }

    func releaseSlot(_ data: UInt) {
        guard data != 0 else { return }
        slots[Int(data) - 1] = nil
        freeSlots.append(Int(data) - 1)
    }

    /// Drops the events waiting in the Swift external queue, freeing their slots.
    func clearExternalQueue() {
        for event in externalQueue { releaseSlot(event.data) }
        externalQueue.removeAll()
    }
}
