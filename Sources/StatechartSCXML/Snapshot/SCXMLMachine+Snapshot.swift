import Statechart

extension SCXMLMachine {
    /// Captures the session between two macrosteps: configuration, history, queued events,
    /// pending delayed sends (with their time left and `sendid`), the mailbox, the datamodel's
    /// variables and the session's counters.
    ///
    /// ```swift
    /// try machine.start()
    /// try machine.send("order.placed", data: .object(["id": .number(7)]))
    /// let json = try JSONEncoder().encode(try machine.snapshot())
    /// ```
    /// - Throws: ``SCXMLSnapshotError/unrepresentableValue(variable:path:reason:)`` for a
    ///   variable JSON cannot hold (a function, a cycle...),
    ///   ``SCXMLSnapshotError/invocationActive(state:invokeID:)`` while a state with an
    ///   `<invoke>` is active, `SnapshotError` from the machine (not started, or called from
    ///   the machine's own callbacks).
    /// - Complexity: O(document size + states + queued events + the datamodel's data).
    public func snapshot() throws -> SCXMLSnapshot {
        let session = self.session
        guard let model = session.model as? SCXMLSnapshottingDatamodel else {
            throw SCXMLSnapshotError.datamodelNotSnapshottable(Self.datamodelName(of: session.model))
        }
        var variables: [SCXMLSnapshot.Variable] = []
        var mailbox: [SCXMLEvent] = []
        var counters = SCXMLSnapshot.SessionState(originalSessionID: session.sessionID, sendCounter: 0,
                                                  invokeCounter: 0, initializedStates: [])
        let captured = try machine.snapshot(encodingPayload: SnapshotPayload.encode, whileHeld: {
            // Invoked sessions run on their own threads and hold their own state: not captured,
            // and refused rather than restored without them.
            if let invocation = session.invocations.first {
                let state = document.allStates.first { state in state.invokes.indices.contains { "\(state.id)#invoke\($0)" == invocation.key } }
                throw SCXMLSnapshotError.invocationActive(state: state?.id ?? invocation.key, invokeID: invocation.invokeID)
            }
            variables = try model.snapshotVariables()
            mailbox = session.mailbox.withLock { $0 }
            counters.sendCounter = session.sendCounter
            counters.invokeCounter = session.invokeCounter
            counters.initializedStates = session.initializedStates.sorted()
        })
        // A state with an <invoke> whose start failed is active without an invocation: a
        // restored machine would start it again, so it is refused too.
        let active = Set(captured.activeStates)
        if !captured.isFinished, let state = document.allStates.first(where: { active.contains($0.id) && !$0.invokes.isEmpty }) {
            var invokeID: String?
            if case .literal(let id)? = state.invokes[0].id { invokeID = id }
            throw SCXMLSnapshotError.invocationActive(state: state.id, invokeID: invokeID)
        }
        return SCXMLSnapshot(version: SCXMLSnapshot.currentVersion, document: SCXMLDocumentFingerprint(document),
                             datamodel: Self.datamodelName(of: model), machine: captured,
                             mailbox: mailbox.map { SnapshotEvent(name: $0.name, payload: SnapshotPayload.encode($0)) },
                             variables: variables, session: counters)
    }

    /// Puts this machine, loaded from the snapshot's document and not started, in the state
    /// `snapshot` recorded. Nothing runs: no `<data>` is initialized, no script or entry
    /// content is executed; delayed sends are due after their time left on this machine's
    /// clock, and events in the mailbox are processed as they would have been.
    ///
    /// ```swift
    /// let restored = try SCXMLMachine(contentsOf: url, options: options)
    /// try restored.restore(snapshot)      // instead of start()
    /// try restored.send("next")
    /// ```
    /// The restored session has a new ``sessionID``; generated `sendid`s continue the
    /// original's count (`send.<new id>.<n>`), and pending sends keep their `sendid`s, so
    /// `<cancel>` still finds them.
    ///
    /// - Throws: ``SCXMLSnapshotError`` for another document, datamodel or format version, or
    ///   a started machine; `SnapshotError` when the configuration does not fit the chart.
    ///   On error the machine has not been started and can be started or restored again.
    public func restore(_ snapshot: SCXMLSnapshot) throws {
        guard snapshot.version == SCXMLSnapshot.currentVersion else {
            throw SCXMLSnapshotError.unsupportedVersion(snapshot.version)
        }
        let fingerprint = SCXMLDocumentFingerprint(document)
        guard fingerprint.hash == snapshot.document.hash else {
            throw SCXMLSnapshotError.differentDocument(expected: fingerprint, found: snapshot.document)
        }
        let session = self.session
        guard let model = session.model as? SCXMLSnapshottingDatamodel else {
            throw SCXMLSnapshotError.datamodelNotSnapshottable(Self.datamodelName(of: session.model))
        }
        guard type(of: model).names.contains(snapshot.datamodel) else {
            throw SCXMLSnapshotError.differentDatamodel(expected: Self.datamodelName(of: model), found: snapshot.datamodel)
        }
        guard !machine.isStarted else { throw SCXMLSnapshotError.alreadyStarted }
        let mailbox = try snapshot.mailbox.map { event -> SCXMLEvent in
            guard let scxml = try SnapshotPayload.decode(event) as? SCXMLEvent else {
                throw SCXMLSnapshotError.malformed("mailbox event '\(event.name)' is not an SCXML event")
            }
            return scxml
        }
        // The gate performs deferred sends and takes the mailbox: in place before any delayed
        // event can fire.
        session.installGate()
        try machine.restore(snapshot.machine, decodingPayload: SnapshotPayload.decode, beforeApplying: {
            try model.restoreVariables(snapshot.variables)
            session.sendCounter = snapshot.session.sendCounter
            session.invokeCounter = snapshot.session.invokeCounter
            session.initializedStates = Set(snapshot.session.initializedStates)
            session.mailbox.withLock { $0.insert(contentsOf: mailbox, at: 0) }
        })
        if !mailbox.isEmpty { session.schedule { [session] in session.poke() } }
    }

    static func datamodelName(of model: SCXMLDatamodel) -> String {
        type(of: model).names.first ?? "\(type(of: model))"
    }
}
