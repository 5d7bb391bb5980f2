import Statechart

// `_event`: the event of the microstep being run, bound in the datamodel only when an
// expression may read it.

extension SCXMLSession {
    /// The datamodel. Reading it first binds `_event` when an event is waiting to be bound
    /// (see ``rememberEvent(_:)``), so every use sees the event of the microstep being run.
    var datamodel: SCXMLDatamodel! {
        get {
            if eventPending { bindPendingEvent() }
            return model
        }
        set {
            model = newValue
            bindsEvent = !(newValue is NullDatamodel)
        }
    }

    /// Keeps `_event` current: the datamodel sees the event of the microstep being run. The
    /// binding itself waits until the datamodel is used (``datamodel``): content that
    /// evaluates nothing (`<raise>`, a `<log>` without `expr`, literal `<send>`s) costs none.
    @inline(__always)
    func rememberEvent(_ ctx: ActionContext) {
        if bindsEvent { setPendingEvent(ctx) }
    }

    private func setPendingEvent(_ ctx: ActionContext) {
        let id = ctx.payloadFreeEventID
        let flags = ctx.eventFlags
        if let id {
            // An event without payload is its id and flags: when they are those of the event
            // remembered last, `_event` is (or is about to be bound to) this event already.
            let key = UInt64(id) << 32 | UInt64(flags)
            if key == rememberedEventKey { return }
            rememberedEventKey = key
        }
        if let id, flags & SCXMLEvent.bareExternalFlag != 0 {
            // Only a name sent from outside (no payload): kept as its name, no event made.
            if eventPending && pendingBareName == nil { pendingEvent = nil }   // superseded
            pendingBareName = ctx.payloadFreeEventName(id)
        } else {
            // No event (eventless transitions, the initial entry): `_event` keeps its value.
            guard let event = ctx.event else { return }
            if id == nil { rememberedEventKey = nil }
            pendingBareName = nil
            pendingEvent = (event, flags)
        }
        eventPending = true
    }

    private func bindPendingEvent() {
        eventPending = false
        if let name = pendingBareName {
            pendingBareName = nil
            bindExternalEvent(named: name)
            return
        }
        guard let (event, flags) = pendingEvent else { return }
        pendingEvent = nil
        if event.payload == nil && flags & SCXMLEvent.bareExternalFlag != 0 {
            bindExternalEvent(named: event.name)
            return
        }
        lastExternalEventName = nil
        let scxml = SCXMLEvent(event, flags: flags)
        if scxml != lastEvent {
            lastEvent = scxml
            model.setEvent(scxml)
        }
    }

    /// Binds a name sent from outside: no `SCXMLEvent` built or compared.
    private func bindExternalEvent(named name: String) {
        if lastExternalEventName == name { return }
        lastExternalEventName = name
        lastEvent = nil
        model.setExternalEvent(named: name)
    }
}
