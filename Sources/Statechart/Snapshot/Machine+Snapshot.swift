import CStateCore

/// The dynamic state of a machine in chart indices, shared by the untyped and typed snapshots.
struct RawSnapshot {
    struct QueuedEvent {
        var event: Event
        var typed: (any Sendable)?
        var raw: sc_event
    }

    struct Delayed {
        var id: String
        var event: Event
        var typed: (any Sendable)?
        var remaining: Duration
    }

    var active: [Int]
    var history: [(state: Int, remembered: [Int])]
    var internalEvents: [QueuedEvent]
    var delayed: [Delayed]
    var halted: Bool
}

/// An event to put back into a restored machine.
struct RestoredEvent {
    var event: Event
    var typed: (any Sendable)?
    var known: (id: UInt32, exact: Bool)?
}

extension Machine {
    // MARK: - Public API

    /// Captures the configuration, history records, internal queue and pending delayed events.
    ///
    /// ```swift
    /// let snapshot = try machine.snapshot()
    /// let json = try JSONEncoder().encode(snapshot)
    /// ```
    /// - Throws: ``SnapshotError/insideMacrostep`` from the machine's own callbacks,
    ///   ``SnapshotError/notStarted``, ``SnapshotError/unencodablePayload(event:)`` when an
    ///   event's payload is not a ``DataValue``.
    /// - Complexity: O(states + queued events + delayed events).
    public func snapshot() throws -> MachineSnapshot {
        try snapshot(encodingPayload: { event in
            switch event.payload {
            case nil: return nil
            case let value as DataValue: return value
            default: throw SnapshotError.unencodablePayload(event: event.name)
            }
        })
    }

    /// ``snapshot()`` for machines whose events carry payloads of their own types (an SCXML
    /// session's events): `encodingPayload` turns each queued or delayed event's payload into
    /// a ``DataValue`` (or `nil`), and ``restore(_:decodingPayload:beforeApplying:)`` turns it back.
    ///
    /// ```swift
    /// let snapshot = try machine.snapshot(encodingPayload: { ($0.payload as? Order)?.dataValue })
    /// ```
    /// `whileHeld` runs with the machine held, right after the capture: for state kept beside
    /// the machine (a datamodel) that must be captured at the same point.
    public func snapshot(encodingPayload: (Event) throws -> DataValue?,
                         whileHeld: () throws -> Void = {}) throws -> MachineSnapshot {
        let raw = try captureRaw(whileHeld: whileHeld)
        let ids = chart.stateIDs
        func encode(_ event: Event) throws -> SnapshotEvent {
            SnapshotEvent(name: event.name, payload: try encodingPayload(event))
        }
        return MachineSnapshot(
            chart: chart.name,
            activeStates: raw.active.map { ids[$0] },
            history: raw.history.map { .init(state: ids[$0.state], remembered: $0.remembered.map { ids[$0] }) },
            internalEvents: try raw.internalEvents.map { try encode($0.event) },
            delayedEvents: try raw.delayed.map {
                .init(sendID: $0.id, event: try encode($0.event), remaining: $0.remaining)
            },
            isFinished: raw.halted)
    }

    /// Replaces this machine's state with `snapshot`'s, without running any action: no exit
    /// or entry actions run and observers are not told. Pending delayed events are replaced by
    /// the snapshot's (due after their remaining time on this machine's clock), and the
    /// invocations of the restored active states are started, as at the end of a macrostep.
    ///
    /// ```swift
    /// let machine = Machine(chart, clock: clock)
    /// try machine.restore(snapshot)    // started, in the snapshot's configuration
    /// ```
    /// The machine counts as started afterwards; it may or may not have been started before.
    /// On error nothing is changed.
    ///
    /// - Throws: ``SnapshotError`` when the snapshot does not fit the chart or the call comes
    ///   from inside the machine's own callbacks.
    public func restore(_ snapshot: MachineSnapshot) throws {
        try restore(snapshot, decodingPayload: { $0.payload })
    }

    /// ``restore(_:)`` for snapshots taken with ``snapshot(encodingPayload:whileHeld:)``:
    /// `decodingPayload` makes each queued or delayed event's payload from its snapshot form.
    ///
    /// `beforeApplying` runs with the machine held, once the snapshot has been checked against
    /// the chart and before anything is changed: for state kept beside the machine (a
    /// datamodel); when it throws, the machine is left as it was.
    ///
    /// ```swift
    /// try machine.restore(snapshot, decodingPayload: { $0.payload.map(Order.init) })
    /// ```
    public func restore(_ snapshot: MachineSnapshot, decodingPayload: (SnapshotEvent) throws -> (any Sendable)?,
                        beforeApplying: () throws -> Void = {}) throws {
        func index(_ id: String) throws -> Int {
            guard let index = chart.index(of: id) else { throw SnapshotError.unknownState(id) }
            return index
        }
        let active = try snapshot.activeStates.map(index)
        let history = try snapshot.history.map { (try index($0.state), try $0.remembered.map(index)) }
        func decode(_ event: SnapshotEvent) throws -> RestoredEvent {
            RestoredEvent(event: Event(event.name, payload: try decodingPayload(event)), typed: nil, known: nil)
        }
        try restoreRaw(active: active, history: history, halted: snapshot.isFinished,
                       internalEvents: snapshot.internalEvents.map(decode),
                       delayed: snapshot.delayedEvents.map { ($0.sendID, try decode($0.event), $0.remaining) },
                       beforeApplying: beforeApplying)
    }

    /// A machine for `chart` in the state `snapshot` recorded; see ``restore(_:)``.
    ///
    /// ```swift
    /// let machine = try Machine(chart, restoring: snapshot)
    /// ```
    public convenience init(_ chart: CompiledChart, restoring snapshot: MachineSnapshot,
                            options: MachineOptions = MachineOptions(),
                            clock: any MachineClock = SystemClock.shared) throws {
        self.init(chart, options: options, clock: clock)
        try restore(snapshot)
    }

    // MARK: - Raw capture and restore

    func captureRaw(whileHeld: () throws -> Void = {}) throws -> RawSnapshot {
        try lock.withLock(ifReentered: { throw SnapshotError.insideMacrostep }) {
            guard runtime.started else { throw SnapshotError.notStarted }
            let core = runtime.core
            var history: [(Int, [Int])] = []
            for h in chart.historyStates {
                let count = sc_machine_history(core, sc_id(h), nil, 0)
                guard count > 0, count != UInt32.max else { continue }
                var buffer = [sc_id](repeating: 0, count: Int(count))
                _ = sc_machine_history(core, sc_id(h), &buffer, count)
                history.append((h, buffer.map { Int($0) }))
            }
            var internalEvents: [RawSnapshot.QueuedEvent] = []
            for i in 0..<sc_machine_internal_count(core) {
                let raw = sc_machine_internal_event(core, i)
                guard let (event, typed) = runtime.slotContents(raw) else { continue }
                internalEvents.append(.init(event: event, typed: typed, raw: raw))
            }
            let delayed = scheduler.pendingEvents().map {
                RawSnapshot.Delayed(id: $0.entry.id, event: $0.entry.event, typed: $0.entry.typed, remaining: $0.remaining)
            }
            try whileHeld()
            return RawSnapshot(active: runtime.activeIndices(atomicOnly: false), history: history,
                               internalEvents: internalEvents, delayed: delayed,
                               halted: sc_machine_is_halted(core))
        }
    }

    func restoreRaw(active: [Int], history: [(state: Int, remembered: [Int])], halted: Bool,
                    internalEvents: [RestoredEvent], delayed: [(id: String, event: RestoredEvent, remaining: Duration)],
                    beforeApplying: () throws -> Void = {}) throws {
        try lock.withLock(ifReentered: { throw SnapshotError.insideMacrostep }) {
            // The core owns the rules (sc_machine_check_configuration, sc_machine_check_history:
            // the ones its restores apply); everything is checked before anything is restored,
            // so a refused snapshot changes nothing.
            let ids = chart.stateIDs
            let core = runtime.core
            let states = active.map { sc_id($0) }
            guard sc_machine_check_configuration(core, states, UInt32(states.count)) == SC_OK else {
                throw SnapshotError.illegalConfiguration(active.map { ids[$0] })
            }
            let records = history.map { (state: sc_id($0.state), remembered: $0.remembered.map { sc_id($0) }) }
            for record in records
            where sc_machine_check_history(core, record.state, record.remembered, UInt32(record.remembered.count)) != SC_OK {
                throw SnapshotError.invalidHistory(ids[Int(record.state)])
            }
            if internalEvents.count > runtime.maximumInternalQueueLength {
                throw SnapshotError.queueFull(event: internalEvents[runtime.maximumInternalQueueLength].event.name)
            }
            try beforeApplying()
            // Checked: none of the core calls below can fail.
            runtime.clearExternalQueue()
            var status = sc_machine_restore(core, states, UInt32(states.count), halted)
            precondition(status == SC_OK, "CStateCore rejected a configuration it had checked legal")
            for record in records {
                status = sc_machine_restore_history(core, record.state, record.remembered, UInt32(record.remembered.count))
                precondition(status == SC_OK, "CStateCore rejected a history record it had checked legal")
            }
            for queued in internalEvents {
                runtime.raiseFromAction(queued.event, typed: queued.typed, known: queued.known)
            }
            runtime.pendingError = nil
            runtime.started = true
            runtime.haltReported = false
            scheduler.cancelAll()
            if !halted {
                scheduler.reopen()
                for (id, event, remaining) in delayed {
                    _ = scheduler.schedule(event.event, typed: event.typed, after: remaining, id: id)
                }
                for state in active.sorted() where chart.invocations[state] != nil {
                    runtime.invoke(state, start: true)
                }
            }
            finishMacrostep()
        }
    }
}
