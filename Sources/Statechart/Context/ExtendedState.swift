import Synchronization

/// A typed machine's extended state (its context value) and a version that every update bumps.
///
/// Updates happen only inside macrosteps (actions run with the machine held), so they are
/// serialized like the configuration. The mutex is what lets readers outside the machine (the
/// app, a snapshot) read it safely; the version lets a snapshot tell whether the value it read
/// is the one that went with the configuration it captured.
final class ExtendedState: Sendable {
    private let storage: Mutex<(version: UInt64, value: (any Sendable)?)>

    init(_ value: (any Sendable)?) {
        storage = Mutex((0, value))
    }

    /// The value and its version.
    func read() -> (version: UInt64, value: (any Sendable)?) {
        storage.withLock { $0 }
    }

    /// Replaces the value.
    func write(_ value: (any Sendable)?) {
        storage.withLock { $0 = ($0.version &+ 1, value) }
    }

    /// Updates the value when it is a `Value`; returns whether it was. `body` runs outside the
    /// mutex, so it may read the context; no other update can interleave, since updates run
    /// only in actions, which the machine serializes. Readers see the old value until it returns.
    func update<Value: Sendable>(_ type: Value.Type, _ body: (inout Value) -> Void) -> Bool {
        guard var value = storage.withLock({ $0.value }) as? Value else { return false }
        body(&value)
        write(value)
        return true
    }
}
