import Observation
import Synchronization

/// An `Observable` view of a ``StateMachine``: SwiftUI views (and any user of Swift's
/// Observation, such as `withObservationTracking`) that read its ``configuration``,
/// ``activeStates``, ``isFinished``, ``isActive(_:)`` or ``context`` are told when what
/// they read changes.
///
/// ```swift
/// struct LoginScreen: View {
///     let login: ObservableStateMachine<Screen, LoginEvent>
///     var body: some View {
///         if login.isActive(.signingIn) { ProgressView() }
///         Text("attempts: \(login.context.attempts)")
///     }
/// }
/// // LoginScreen(login: ObservableStateMachine(machine))
/// ```
///
/// A machine pays nothing for observation until a view is made: the view installs a state
/// observer and a context observer on its machine, and removes them when it is released.
/// Changes are reported from the thread that runs the macrostep, as each state is entered or
/// exited and as each context update happens; the values read are the machine's own, so a
/// reader on another thread sees them once the macrostep has completed.
public final class ObservableStateMachine<State: Hashable & Sendable, Event: ChartEvent>: Observable, Sendable {
    /// The machine observed.
    public let machine: StateMachine<State, Event>
    private let registrar = ObservationRegistrar()
    private let stateObserver = Mutex<ObserverToken?>(nil)

    /// A view of `machine`; observation starts now.
    public init(_ machine: StateMachine<State, Event>) {
        self.machine = machine
        let token = machine.onStateChange { [weak self] _, _ in self?.configurationChanged() }
        stateObserver.withLock { $0 = token }
        setContextObserver { [weak self] in self?.contextChanged() }
    }

    deinit {
        if let token = stateObserver.withLock({ $0 }) { machine.removeObserver(token) }
        setContextObserver(nil)
    }

    /// Installs the observer the context tells of each change (none without a context).
    private func setContextObserver(_ observer: (@Sendable () -> Void)?) {
        guard Event.Context.self != NoContext.self else { return }
        machine.machine.access { machine.contextStorage.observer = observer }
    }

    /// The active atomic states; see ``StateMachine/configuration``.
    public var configuration: [State] {
        registrar.access(self, keyPath: \.configuration)
        return machine.configuration
    }

    /// Every active state; see ``StateMachine/activeStates``.
    public var activeStates: [State] {
        registrar.access(self, keyPath: \.configuration)
        return machine.activeStates
    }

    /// Whether `state` is active; see ``StateMachine/isActive(_:)``.
    public func isActive(_ state: State) -> Bool {
        registrar.access(self, keyPath: \.configuration)
        return machine.isActive(state)
    }

    /// Whether the machine has finished; see ``StateMachine/isFinished``.
    public var isFinished: Bool {
        registrar.access(self, keyPath: \.configuration)
        return machine.isFinished
    }

    /// The machine's context; see ``StateMachine/context``.
    ///
    /// ```swift
    /// Text("attempts: \(login.context.attempts)")
    /// ```
    public var context: Event.Context {
        registrar.access(self, keyPath: \.contextChanges)
        return machine.context
    }

    /// Replaced by the typed ``context``.
    @available(*, unavailable, renamed: "context", message: "declare the context type on the event type (typealias Context = T) and read context")
    public func context<Value: Sendable>(as type: Value.Type = Value.self) -> Value? { fatalError() }

    /// The key path readers of the context are registered under.
    var contextChanges: Void { () }

    private func configurationChanged() {
        registrar.withMutation(of: self, keyPath: \.configuration) {}
    }

    private func contextChanged() {
        registrar.withMutation(of: self, keyPath: \.contextChanges) {}
    }
}
