/// The time source of delayed events: tells the time and wakes the machine's scheduler up.
///
/// Two clocks come with the library: ``SystemClock`` (real time; wake-ups fire on their own
/// on a background thread) and ``TestClock`` (virtual time; wake-ups fire when a test calls
/// ``TestClock/advance(by:)``, instantly and in a deterministic order). Implement this protocol
/// to drive delayed events from another time source, such as a game loop.
///
/// ```swift
/// let clock = TestClock()
/// let machine = Machine(chart, clock: clock)
/// try machine.start()
/// machine.send("timeout", after: .seconds(30))
/// clock.advance(by: .seconds(30))     // "timeout" is processed before this returns
/// ```
public protocol MachineClock: Sendable {
    /// The current time: monotonic, measured from an origin of the clock's choosing.
    var now: Duration { get }

    /// Calls `body` once, from any thread, no earlier than `deadline` (in ``now``'s terms).
    ///
    /// Wake-ups are never cancelled: a scheduler whose events were cancelled meanwhile finds
    /// nothing due and does nothing. `body` holds its scheduler weakly, so a pending wake-up
    /// never keeps a machine alive.
    func wakeUp(at deadline: Duration, _ body: @escaping @Sendable () -> Void)
}
