import Foundation
import Statechart
import StatechartSCXML

/// `SCXMLMachine`s with their datamodel as a ``DurableMachineKind``: the stored state is the
/// session's `SCXMLSnapshot` as JSON, and the version is the document's fingerprint, so a
/// session saved by another document is refused.
///
/// ```swift
/// let document = try SCXMLMachine(contentsOf: url, options: .withECMAScript).document
/// let kind = DurableDocument(document, options: .withECMAScript)
/// try await DurableSessions(store: store, kind: kind).send(SnapshotEvent(name: "pay"), id: "p1", to: "order-1")
/// ```
/// `<send>` to a target with a scheme the runtime does not route itself (`session:<id>` for
/// another durable session, or anything the application delivers, such as `mail:ops`) goes
/// to the outbox, committed with the macrostep. Events are `SnapshotEvent`s: a name and
/// `DataValue` data (`_event.data`).
public struct DurableDocument: DurableMachineKind {
    /// The document.
    public let document: SCXMLDocument
    /// How sessions run (datamodels, bounds); its clock is replaced by the store's.
    public let options: SCXMLMachine.Options
    /// The document's fingerprint hash (`SCXMLDocumentFingerprint`).
    public let version: String

    /// A kind running `document` with `options`.
    public init(_ document: SCXMLDocument, options: SCXMLMachine.Options = SCXMLMachine.Options()) {
        self.document = document
        self.options = options
        self.version = SCXMLDocumentFingerprint(document).hash
    }

    public typealias Event = SnapshotEvent
    public typealias Snapshot = SCXMLSnapshot

    public func encode(_ event: SnapshotEvent) throws -> Data {
        try JSONEncoder().encode(event)
    }

    public func makeInstance(session: String, clock: TestClock) throws -> Instance {
        let instance = try Instance(document: document, options: options, clock: clock)
        try instance.machine.start()
        return instance
    }

    public func restoreInstance(session: String, state: Data, timers: [PendingTimer], clock: TestClock) throws -> Instance {
        let snapshot = try decodeSnapshot(state: state, timers: timers)
        let instance = try Instance(document: document, options: options, clock: clock)
        try instance.machine.restore(snapshot)
        return instance
    }

    public func decodeSnapshot(state: Data, timers: [PendingTimer]) throws -> SCXMLSnapshot {
        let decoder = JSONDecoder()
        var snapshot = try decoder.decode(SCXMLSnapshot.self, from: state)
        snapshot.machine.delayedEvents = try timers.map {
            MachineSnapshot.DelayedEvent(sendID: $0.sendID, event: try decoder.decode(SnapshotEvent.self, from: $0.body),
                                         remaining: $0.remaining)
        }
        return snapshot
    }

    /// One session's SCXML machine.
    public final class Instance: DurableInstance {
        /// The machine.
        public let machine: SCXMLMachine
        private let outbox = OutboxBuffer()

        init(document: SCXMLDocument, options: SCXMLMachine.Options, clock: TestClock) throws {
            var options = options
            options.clock = clock
            machine = try SCXMLMachine(document: document, options: options)
            machine.onSend { [outbox] event, target, _ in
                let body = (try? JSONEncoder().encode(SnapshotEvent(name: event.name, payload: event.data))) ?? Data()
                outbox.append(OutgoingEvent(target: target, name: event.name, body: body))
                return true
            }
        }

        public func apply(_ body: Data) throws {
            let event = try JSONDecoder().decode(SnapshotEvent.self, from: body)
            _ = try machine.send(event.name, data: event.payload)
        }

        public func capture() throws -> (state: Data, timers: [PendingTimer]) {
            try storageForm(of: machine.snapshot(), delayed: \.machine.delayedEvents) {
                ($0.sendID, $0.remaining, $0.event)
            }
        }

        public func takeOutbox() -> [OutgoingEvent] {
            outbox.take()
        }
    }
}
