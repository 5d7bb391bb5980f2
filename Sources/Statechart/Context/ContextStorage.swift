/// A typed machine's context value (``ChartEvent/Context``) and the observer told of each change. A machine whose events declare no context has none.
///
/// Every access happens with the machine's lock held: actions and guards run inside the
/// macrostep that holds it, and readers outside (``StateMachine/context``, a snapshot, an
/// observer's install) take it. Changes are therefore serialized like the configuration, in
/// the order the actions run, and a reader outside never sees a half-made change. Hence
/// `@unchecked Sendable` and the unchecked exclusivity: the lock is the exclusivity.
@usableFromInline
final class ContextStorage<Value: Sendable>: @unchecked Sendable {
    /// Where the value lives: memory of its own, so a guard or action changes it in place
    /// through this address, holding no reference to the storage while it does (the runtime
    /// keeps the storage, and so the memory, as long as any callback can run).
    @usableFromInline let valueAddress: UnsafeMutablePointer<Value>

    /// The value (at ``valueAddress``).
    @inlinable var value: Value {
        get { valueAddress.pointee }
        set { valueAddress.pointee = newValue }
    }
    /// Told after each change, with the lock held; set only while an ``ObservableStateMachine``
    /// watches.
    var observer: (@Sendable () -> Void)? {
        didSet { isObserved = observer != nil }
    }
    /// Whether ``observer`` is set: a change checks this flag, not the closure, so that a
    /// machine nobody observes loads (and retains) no closure per change.
    @usableFromInline @exclusivity(unchecked) private(set) var isObserved = false

    init(_ value: Value) {
        valueAddress = .allocate(capacity: 1)
        valueAddress.initialize(to: value)
    }

    deinit {
        valueAddress.deinitialize(count: 1)
        valueAddress.deallocate()
    }

    /// Records a change of ``value``: one per assignment or in-place update.
    @inlinable
    func didChange() {
        if isObserved { notifyObserver() }
    }

    @usableFromInline
    func notifyObserver() { observer?() }

    /// The unretained address a runtime hands to guards and actions (``MachineRuntime/contextAddress``).
    var address: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The storage at `address`, unretained: the runtime that handed it out keeps it.
    @inlinable @inline(__always)
    static func at(_ address: UnsafeMutableRawPointer) -> Unmanaged<ContextStorage> {
        Unmanaged.fromOpaque(address)
    }
}
