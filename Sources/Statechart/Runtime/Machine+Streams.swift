import CStateCore

extension Machine {
    /// A new stream of the transitions this machine takes from now on, for Swift concurrency.
    ///
    /// Each access creates a separate stream (an observer behind the scenes). Transitions are
    /// yielded in the order they are taken, from inside the macrostep, so every stream sees the
    /// same consistent sequence. The stream finishes when the machine halts, is stopped or is
    /// deallocated; cancelling the consuming task removes the observer.
    ///
    /// ```swift
    /// Task {
    ///     for await transition in machine.transitions {
    ///         print(transition)          // "locked -coin-> unlocked"
    ///     }
    /// }
    /// ```
    /// - Note: the buffer is unbounded: a consumer slower than the machine holds every
    ///   transition it has not read yet.
    public var transitions: AsyncStream<TransitionRecord> {
        let chart = self.chart
        return transitionStream { index, event in TransitionRecord(chart: chart, index: index, event: event.event) }
    }

    /// A stream fed by a transition observer that `transform`s each taken transition.
    func transitionStream<Element: Sendable>(
        _ transform: @escaping @Sendable (_ index: Int, _ event: ObservedEvent) -> Element
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        access {
            if runtime.haltReported {
                continuation.finish()
                return
            }
            let token = runtime.observers.token()
            _ = runtime.observers.add(transition: { index, event in continuation.yield(transform(index, event)) },
                                      token: token)
            runtime.observers.add(finisher: { continuation.finish() }, token: token)
            continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        }
        return stream
    }
}
