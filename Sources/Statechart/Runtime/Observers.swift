import CStateCore

/// A transition the machine took, as observers and detailed results report it.
///
/// ```swift
/// machine.onTransition { record in print(record) }   // "locked -coin-> unlocked"
/// ```
public struct TransitionRecord: Sendable, CustomStringConvertible {
    /// The source state's id.
    public let source: String
    /// Target state ids (empty for a targetless transition).
    public let targets: [String]
    /// The event that triggered it, or `nil` for an eventless transition.
    public let event: Event?
    /// The transition's index in the compiled chart.
    public let index: Int

    init(chart: CompiledChart, index: Int, event: Event?) {
        self.source = chart.sourceOfTransition(index)
        self.targets = chart.targetsOfTransition(index)
        self.event = event
        self.index = index
    }

    /// The transition as `source -event-> targets` (`ε` for eventless, `(targetless)`).
    public var description: String {
        "\(source) -\(event?.name ?? "ε")-> \(targets.isEmpty ? "(targetless)" : targets.joined(separator: " "))"
    }
}

/// Identifies an observer so it can be removed with ``Machine/removeObserver(_:)``.
public struct ObserverToken: Hashable, Sendable {
    let value: Int
}

/// An event as the runtime saw it: the Swift event, the core's id and slot, and the typed value
/// a typed machine attached, so typed observers can recover their own event without string work.
struct ObservedEvent: @unchecked Sendable {
    // @unchecked: `raw` is a plain C struct of integers.
    let event: Event?
    let raw: sc_event
    let typed: (any Sendable)?

    static let none = ObservedEvent(event: nil, raw: sc_event(id: SC_NONE, flags: 0, data: 0), typed: nil)
}

/// The observers of one machine, called with the machine's lock held, in registration order.
///
/// Observers see states and transitions by their index in the compiled chart; the untyped and
/// typed front ends wrap them to report ids or the user's own values. Callers iterate over a
/// copy of a list, so an observer may add or remove observers while it runs.
struct ObserverList {
    typealias StateObserver = @Sendable (_ state: Int, _ entered: Bool) -> Void
    typealias TransitionObserver = @Sendable (_ transition: Int, _ event: ObservedEvent) -> Void
    typealias UnhandledObserver = @Sendable (ObservedEvent) -> Void
    typealias ErrorObserver = @Sendable (MachineError) -> Void

    private var nextToken = 0
    private(set) var stateObservers: [(ObserverToken, StateObserver)] = []
    private(set) var transitionObservers: [(ObserverToken, TransitionObserver)] = []
    private(set) var unhandledObservers: [(ObserverToken, UnhandledObserver)] = []
    private(set) var errorObservers: [(ObserverToken, ErrorObserver)] = []
    /// Called once when the machine halts or is deallocated (finishes `AsyncStream`s).
    private(set) var finishers: [(ObserverToken, @Sendable () -> Void)] = []

    var hasStateObservers: Bool { !stateObservers.isEmpty }
    var hasTransitionObservers: Bool { !transitionObservers.isEmpty }
    var hasUnhandledObservers: Bool { !unhandledObservers.isEmpty }

    mutating func token() -> ObserverToken {
        nextToken += 1
        return ObserverToken(value: nextToken)
    }

    mutating func add(state observer: @escaping StateObserver, token t: ObserverToken? = nil) -> ObserverToken {
        let t = t ?? token()
        stateObservers.append((t, observer))
        return t
    }

    mutating func add(transition observer: @escaping TransitionObserver, token t: ObserverToken? = nil) -> ObserverToken {
        let t = t ?? token()
        transitionObservers.append((t, observer))
        return t
    }

    mutating func add(unhandled observer: @escaping UnhandledObserver, token t: ObserverToken? = nil) -> ObserverToken {
        let t = t ?? token()
        unhandledObservers.append((t, observer))
        return t
    }

    mutating func add(error observer: @escaping ErrorObserver, token t: ObserverToken? = nil) -> ObserverToken {
        let t = t ?? token()
        errorObservers.append((t, observer))
        return t
    }

    mutating func add(finisher: @escaping @Sendable () -> Void, token t: ObserverToken) {
        finishers.append((t, finisher))
    }

    mutating func remove(_ token: ObserverToken) {
        stateObservers.removeAll { $0.0 == token }
        transitionObservers.removeAll { $0.0 == token }
        unhandledObservers.removeAll { $0.0 == token }
        errorObservers.removeAll { $0.0 == token }
        finishers.removeAll { $0.0 == token }
    }

    /// Removes every finisher and returns them, so each runs exactly once.
    mutating func takeFinishers() -> [@Sendable () -> Void] {
        defer { finishers.removeAll() }
        return finishers.map(\.1)
    }
}
