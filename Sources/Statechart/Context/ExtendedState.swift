import Synchronization

/// A typed machine's extended state (its context value) and a version that every update bumps.
///
/// Updates happen only inside macrosteps (actions run with the machine held), so they are
/// serialized like the configuration. The mutex is what lets readers outside the machine (the
/// app, a snapshot) read it safely; the version lets a snapshot tell whether the value it read
/// is the one that went with the configuration it captured.
final class ExtendedState: Sendable {
    private struct Storage {
        var version: UInt64 = 0
        var value: (any Sendable)?
        /// Told after each write; set only while an ``ObservableStateMachine`` watches.
        var observer: (@Sendable () -> Void)?
    }

    private let storage: Mutex<Storage>

    init(_ value: (any Sendable)?) {
        storage = Mutex(Storage(value: value))
    }

    /// The value and its version.
    func read() -> (version: UInt64, value: (any Sendable)?) {
        storage.withLock { ($0.version, $0.value) }
    }

    /// Replaces the value, then tells the observer (outside the mutex: it may read the value).
    func write(_ value: (any Sendable)?) {
        let observer = storage.withLock { storage in
            storage.version &+= 1
            storage.value = value
            return storage.observer
        }
        observer?()
    }

    /// Replaces the observer told after each write.
    func setObserver(_ observer: (@Sendable () -> Void)?) {
        storage.withLock { $0.observer = observer }
    }

    /// Updates the value when it is a `Value`; returns whether it was. `body` runs outside the
    /// mutex, so it may read the context; no other update can interleave, since updates run
    /// only in actions, which the machine serializes. Readers see the old value until it returns.
    func update<Value: Sendable>(_ type: Value.Type, _ body: (inout Value) -> Void) -> Bool {
        guard var value = read().value as? Value else { return false }
        body(&value)
        write(value)
        return true
    }
}
