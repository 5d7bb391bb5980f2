import Synchronization

/// What an invoked function or sequence factory receives: the machine's context as the
/// invocation started (typed, ``ChartEvent/Context``), and the machine's clock, so work that
/// waits (a retry back-off, a polling interval) waits on a ``TestClock`` in tests.
///
/// ```swift
/// Invoke({ invocation in
///     try await invocation.sleep(for: .seconds(2))     // instant under TestClock.advance
///     return try await api.fetchProfile()
/// }, onDone: { .loaded($0) }, onError: { .failed("\($0)") })
/// ```
public struct InvocationContext<Context: Sendable>: Sendable {
    /// The clock of the machine that started the invocation.
    public let clock: any MachineClock
    /// The machine's context as it was when the invocation started (the macrostep that
    /// entered the state had completed); see ``StateMachine/context``.
    ///
    /// ```swift
    /// Invoke({ invocation in
    ///     try await api.signIn(invocation.context.user, invocation.context.password)
    /// }, onDone: { .signedIn($0) }, onError: { .failed("\($0)") })
    /// ```
    public let context: Context

    /// Replaced by the typed ``context``.
    @available(*, unavailable, renamed: "context", message: "declare the context type on the event type (typealias Context = T) and read invocation.context")
    public func context<Value: Sendable>(as type: Value.Type = Value.self) -> Value? { fatalError() }

    /// Suspends for `duration` on ``clock``.
    ///
    /// - Throws: `CancellationError` when the invoking state is exited first (the task is
    ///   cancelled); the wake-up then finds nothing to resume.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        // One-shot: whichever of the wake-up and the cancellation comes first resumes.
        let waiting = Mutex<CheckedContinuation<Void, any Error>?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelledAlready = waiting.withLock { slot -> Bool in
                    if Task.isCancelled { return true }
                    slot = continuation
                    return false
                }
                if cancelledAlready {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                clock.wakeUp(at: clock.now + duration) {
                    waiting.withLock { $0.take() }?.resume()
                }
            }
        } onCancel: {
            waiting.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }
}
