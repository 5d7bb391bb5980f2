/// Work a state runs while it is active (SCXML `<invoke>`, XState's `invoke`): an `async`
/// function, an `AsyncSequence` of events, or a child ``StateMachine``.
///
/// The work starts in a new task when the macrostep that entered the state completes (a state
/// entered and left within one macrostep never starts it), and its task is cancelled when the
/// state is exited. What it produces comes back as your own events, which transitions handle
/// like any other; nothing it produces is delivered once the state has been exited.
///
/// ```swift
/// StateNode(.signingIn) {
///     Invoke({ _ in try await api.signIn(user, password) },
///            onDone: { token in .signedIn(token) },
///            onError: { error in .signInFailed("\(error)") })
///     On(.signedIn, to: .home)
///     On(.signInFailed, to: .form)
/// }
/// ```
///
/// Results enter the machine through a private event (`statechart.invoke.N`) handled by a
/// targetless transition of the invoking state, which raises your event there: the result is
/// processed in that event's macrostep, like a `<raise>`. Work that waits should wait with
/// ``InvocationContext/sleep(for:)`` so a ``TestClock`` controls it.
public struct Invoke<State: Hashable & Sendable, Event: ChartEvent> {
    let element: ChartElement<State, Event>

    /// Invokes an `async` function: its result becomes `onDone(result)`, a thrown error
    /// `onError(error)`. Cancellation on exit reaches `work` as task cancellation.
    ///
    /// ```swift
    /// Invoke({ _ in try await weather.today() }, onDone: { .forecast($0) }, onError: { _ in .offline })
    /// ```
    public init<Output: Sendable>(
        _ work: @escaping @Sendable (InvocationContext<Event.Context>) async throws -> Output,
        onDone: @escaping @Sendable (Output) -> Event,
        onError: @escaping @Sendable (any Error) -> Event,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        let run: InvokeSpec<State, Event>.Run = { invocation, deliver in
            do {
                let output = try await work(invocation)
                deliver(onDone(output))
            } catch {
                deliver(onError(error))
            }
        }
        element = .invoke(InvokeSpec(run: run, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// Invokes a sequence: each element becomes `onElement(element)`; when it ends, `onDone`
    /// (if given) is delivered; an error it throws becomes `onError(error)`. `makeSequence`
    /// runs on each entry, so a state entered again iterates a fresh sequence.
    ///
    /// ```swift
    /// Invoke(each: { _ in sensor.readings }, onElement: { .reading($0) }, onError: { _ in .sensorLost })
    /// ```
    public init<Events: AsyncSequence & Sendable>(
        each makeSequence: @escaping @Sendable (InvocationContext<Event.Context>) -> Events,
        onElement: @escaping @Sendable (Events.Element) -> Event,
        onDone: Event? = nil,
        onError: @escaping @Sendable (any Error) -> Event,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) where Events.Element: Sendable {
        let run: InvokeSpec<State, Event>.Run = { invocation, deliver in
            do {
                for try await element in makeSequence(invocation) {
                    deliver(onElement(element))
                }
                if let onDone { deliver(onDone) }
            } catch {
                deliver(onError(error))
            }
        }
        element = .invoke(InvokeSpec(run: run, location: SourceLocation(file: fileID, line: line, column: column)))
    }

    /// Invokes a child machine: `makeChild` builds it and the invocation starts it; when the
    /// child reaches a top-level final state `onDone(child)` is delivered (read its
    /// configuration there); when the invoking state is exited first, the child is stopped.
    /// A child that fails to start becomes `onError(error)`.
    ///
    /// ```swift
    /// Invoke(child: { _ in try StateMachine(checkoutChart) },
    ///        onDone: { child in child.isActive(.paid) ? .paid : .abandoned },
    ///        onError: { _ in .abandoned })
    /// ```
    public init<ChildState: Hashable & Sendable, ChildEvent: ChartEvent>(
        child makeChild: @escaping @Sendable (InvocationContext<Event.Context>) throws -> StateMachine<ChildState, ChildEvent>,
        onDone: @escaping @Sendable (StateMachine<ChildState, ChildEvent>) -> Event,
        onError: @escaping @Sendable (any Error) -> Event,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        let run: InvokeSpec<State, Event>.Run = { invocation, deliver in
            let child: StateMachine<ChildState, ChildEvent>
            do {
                child = try makeChild(invocation)
                // Subscribed before the start, so a child that finishes in its first
                // macrostep still ends the stream.
                let finished = child.machine.transitions
                try await withTaskCancellationHandler {
                    // Stopping a machine that has not started does not keep a later start from
                    // running it, so cancellation around the start is checked here too.
                    try Task.checkCancellation()
                    try child.start()
                    if Task.isCancelled { child.stop() }        // cancelled while it started
                    for await _ in finished {}
                } onCancel: {
                    child.stop()
                }
            } catch {
                deliver(onError(error))
                return
            }
            if child.isFinished { deliver(onDone(child)) }
        }
        element = .invoke(InvokeSpec(run: run, location: SourceLocation(file: fileID, line: line, column: column)))
    }
}

/// An ``Invoke`` as written in the DSL: the work, given a way to hand events to the machine.
struct InvokeSpec<State: Hashable & Sendable, Event: ChartEvent> {
    typealias Run = @Sendable (InvocationContext<Event.Context>, _ deliver: @escaping @Sendable (Event) -> Void) async -> Void
    var run: Run
    var location: SourceLocation
}
