import CStateCore

/// Sizes and bounds of a running machine.
public struct MachineOptions: Sendable {
    /// Events raised (`raise`, done events) that may wait within one macrostep.
    public var internalQueueCapacity: Int = 256
    /// Microsteps plus internal events one macrostep may take before it is stopped as a
    /// runaway loop (``MachineError/runaway(steps:configuration:)``).
    public var maximumStepsPerMacrostep: Int = 100_000
    /// Capacity of the core's own external queue (used by C hosts; Swift queues its own).
    public var externalQueueCapacity: Int = 16

    public init(internalQueueCapacity: Int = 256, maximumStepsPerMacrostep: Int = 100_000) {
        self.internalQueueCapacity = internalQueueCapacity
        self.maximumStepsPerMacrostep = maximumStepsPerMacrostep
    }
}

/// Why a machine could not do what it was asked.
public enum MachineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A macrostep exceeded ``MachineOptions/maximumStepsPerMacrostep``: eventless transitions
    /// or raised events kept enabling each other. The machine stopped between two microsteps,
    /// in the (legal) `configuration` given; it can still receive events.
    case runaway(steps: Int, configuration: [String])
    /// A queue was full and `event` was not queued.
    case queueFull(event: String, queue: String)
    /// ``Machine/start()`` has not been called.
    case notStarted
    /// ``Machine/start()`` was called twice.
    case alreadyStarted

    public var description: String {
        switch self {
        case .runaway(let steps, let configuration):
            return "runaway macrostep: more than \(steps) microsteps and internal events without becoming stable; stopped in [\(configuration.joined(separator: ", "))]"
        case .queueFull(let event, let queue):
            return "the \(queue) event queue is full; event '\(event)' was not queued"
        case .notStarted:
            return "the machine has not been started; call start() first"
        case .alreadyStarted:
            return "the machine has already been started"
        }
    }
}

/// What became of an event given to ``Machine/send(_:)``.
public enum SendOutcome: Sendable, Equatable {
    /// The event enabled at least one transition (the macrostep has completed).
    case handled
    /// No transition matched the event in the current configuration (observers were told).
    case unhandled
    /// Sent from inside one of this machine's actions or observers: queued, processed after
    /// the current macrostep.
    case queued
    /// The machine had already reached a top-level final state; the event was ignored.
    case halted
}

/// A running statechart.
///
/// ```swift
/// let machine = Machine(try CompiledChart(definition))
/// try machine.start()
/// try machine.send("coin")
/// print(machine.configuration)    // ["unlocked"]
/// ```
///
/// ## Threading
/// A machine is `Sendable`: any thread or task may send events. Sends are serialized: each
/// runs its whole macrostep (run to completion) before the next starts; concurrent senders
/// wait their turn, and none is lost. Actions, guards and observers run on the sending thread
/// with the machine held; when they send to the same machine, the event is queued
/// (``SendOutcome/queued``) and processed after the current macrostep, never re-entrantly and
/// without deadlock. An action must not wait for another thread that sends to this machine.
public final class Machine: @unchecked Sendable {
    // @unchecked: all mutable state lives in `runtime`, which is only touched with `gate` held.
    private let gate = ReentrantGate()
    let runtime: MachineRuntime
    var started = false

    /// The compiled chart this machine runs.
    public let chart: CompiledChart

    /// Creates a machine for `chart`; call ``start()`` to enter its initial configuration.
    public init(_ chart: CompiledChart, options: MachineOptions = MachineOptions()) {
        self.chart = chart
        self.runtime = MachineRuntime(chart: chart, options: options)
        runtime.owner = self
    }

    var gateHeldByCurrentThread: Bool { gate.isHeldByCurrentThread }

    /// Runs `body` with the machine held; from inside the machine's own callbacks (which
    /// already hold it) runs `body` directly.
    @inline(__always)
    func access<T>(_ body: () throws -> T) rethrows -> T {
        if gate.isHeldByCurrentThread { return try body() }
        return try gate.withLock(body)
    }

    /// Enters the initial configuration and completes the first macrostep.
    /// - Throws: ``MachineError/alreadyStarted``, ``MachineError/runaway(steps:configuration:)``.
    public func start() throws {
        try access {
            guard !started else { throw MachineError.alreadyStarted }
            started = true
            try check(sc_machine_start(runtime.core))
            try drainPending()
        }
    }

    /// Sends `event` and runs its macrostep to completion (then any events its actions sent).
    ///
    /// ```swift
    /// try machine.send(Event("deposit", payload: 20))
    /// ```
    /// - Returns: whether the event was handled, unhandled, queued (sent from inside this
    ///   machine's own actions) or ignored because the machine has halted.
    /// - Throws: ``MachineError`` for a runaway macrostep, a full queue, or a machine not started.
    @discardableResult
    public func send(_ event: Event) throws -> SendOutcome {
        if gate.isHeldByCurrentThread {
            runtime.postFromAction(event)
            return .queued
        }
        return try gate.withLock {
            guard started else { throw MachineError.notStarted }
            let outcome = try dispatch(event)
            try drainPending()
            return outcome
        }
    }

    /// Sends the event `name` with an optional payload.
    @discardableResult
    public func send(_ name: String, payload: (any Sendable)? = nil) throws -> SendOutcome {
        try send(Event(name, payload: payload))
    }

    func dispatch(_ event: Event) throws -> SendOutcome {
        let status = sc_machine_dispatch(runtime.core, runtime.coreEvent(event))
        try check(status)
        switch status {
        case SC_UNHANDLED:
            runtime.observers.unhandled(event)
            return .unhandled
        case SC_HALTED: return .halted
        default: return .handled
        }
    }

    func drainPending() throws {
        var next = 0
        defer { runtime.externalQueue.removeAll(keepingCapacity: true) }
        while next < runtime.externalQueue.count {
            let event = runtime.externalQueue[next]
            next += 1
            _ = try dispatch(event)
        }
    }

    private func check(_ status: sc_status) throws {
        if let error = runtime.pendingError {
            runtime.pendingError = nil
            throw error
        }
        switch status {
        case SC_ERR_RUNAWAY:
            runtime.externalQueue.removeAll()
            throw MachineError.runaway(steps: runtime.maximumSteps,
                                       configuration: runtime.activeStates(atomicOnly: true))
        case SC_ERR_QUEUE_FULL:
            throw MachineError.queueFull(event: "?", queue: "internal")
        case SC_ERR_NOT_STARTED:
            throw MachineError.notStarted
        default:
            precondition(status.rawValue >= 0, "CStateCore: \(String(cString: sc_status_text(status)))")
        }
    }

    /// Exits every active state (running exit actions, cancelling invocations) and halts.
    /// The configuration still shows where the machine stopped.
    public func stop() {
        access {
            runtime.externalQueue.removeAll()
            _ = sc_machine_stop(runtime.core)
        }
    }

    // MARK: - Reading the configuration

    /// Whether state `id` is active. `false` for unknown ids.
    public func isActive(_ id: String) -> Bool { access { runtime.isActive(id) } }

    /// The active atomic states (leaves, final states included) in document order.
    public var configuration: [String] { access { runtime.activeStates(atomicOnly: true) } }

    /// Every active state, compound and parallel ancestors included, in document order.
    public var activeStates: [String] { access { runtime.activeStates(atomicOnly: false) } }

    /// Whether ``start()`` has run.
    public var isStarted: Bool { access { started } }

    /// Whether the machine has reached a top-level final state (or was stopped).
    public var isFinished: Bool { access { sc_machine_is_halted(runtime.core) } }

    // MARK: - Observers

    /// Calls `observer` each time a state is entered (`entered` true) or exited.
    @discardableResult
    public func onStateChange(_ observer: @escaping @Sendable (_ state: String, _ entered: Bool) -> Void) -> ObserverToken {
        access { runtime.observers.add(state: observer) }
    }

    /// Calls `observer` for each transition taken, before its actions run.
    @discardableResult
    public func onTransition(_ observer: @escaping @Sendable (TransitionRecord) -> Void) -> ObserverToken {
        access { runtime.observers.add(transition: observer) }
    }

    /// Calls `observer` for each sent event that enabled no transition.
    @discardableResult
    public func onUnhandled(_ observer: @escaping @Sendable (Event) -> Void) -> ObserverToken {
        access { runtime.observers.add(unhandled: observer) }
    }

    /// Stops calling the observer registered under `token`.
    public func removeObserver(_ token: ObserverToken) {
        access { runtime.observers.remove(token) }
    }
}
