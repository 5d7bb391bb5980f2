/// A transition the machine took, as observers and detailed results report it.
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

    public var description: String {
        "\(source) -\(event?.name ?? "ε")-> \(targets.isEmpty ? "(targetless)" : targets.joined(separator: " "))"
    }
}

/// Identifies an observer so it can be removed with ``Machine/removeObserver(_:)``.
public struct ObserverToken: Hashable, Sendable {
    let value: Int
}

/// The observers of one machine. Called with the machine's gate held, in registration order.
struct ObserverList {
    typealias StateObserver = @Sendable (_ state: String, _ entered: Bool) -> Void
    typealias TransitionObserver = @Sendable (TransitionRecord) -> Void
    typealias UnhandledObserver = @Sendable (Event) -> Void

    private var nextToken = 0
    private(set) var stateObservers: [(ObserverToken, StateObserver)] = []
    private(set) var transitionObservers: [(ObserverToken, TransitionObserver)] = []
    private(set) var unhandledObservers: [(ObserverToken, UnhandledObserver)] = []

    var hasTransitionObservers: Bool { !transitionObservers.isEmpty }

    private mutating func token() -> ObserverToken {
        nextToken += 1
        return ObserverToken(value: nextToken)
    }

    mutating func add(state observer: @escaping StateObserver) -> ObserverToken {
        let t = token()
        stateObservers.append((t, observer))
        return t
    }

    mutating func add(transition observer: @escaping TransitionObserver) -> ObserverToken {
        let t = token()
        transitionObservers.append((t, observer))
        return t
    }

    mutating func add(unhandled observer: @escaping UnhandledObserver) -> ObserverToken {
        let t = token()
        unhandledObservers.append((t, observer))
        return t
    }

    mutating func remove(_ token: ObserverToken) {
        stateObservers.removeAll { $0.0 == token }
        transitionObservers.removeAll { $0.0 == token }
        unhandledObservers.removeAll { $0.0 == token }
    }

    func stateChanged(_ state: String, entered: Bool) {
        for (_, observer) in stateObservers { observer(state, entered) }
    }

    func transitionTaken(_ record: TransitionRecord) {
        for (_, observer) in transitionObservers { observer(record) }
    }

    func unhandled(_ event: Event) {
        for (_, observer) in unhandledObservers { observer(event) }
    }
}
