import Synchronization

/// Virtual time for tests: nothing fires until the test advances the clock, and then every
/// due wake-up fires on the calling thread, in deadline order, before `advance` returns.
///
/// Delayed events sent while the clock advances (by actions of the events it delivers) fire in
/// the same call when they fall due within the advanced span, so a test of timeouts and
/// retries is instant and deterministic.
///
/// ```swift
/// let clock = TestClock()
/// let machine = Machine(chart, clock: clock)
/// try machine.start()
/// machine.send("ping", after: .seconds(2), id: "ping")
/// clock.advance(by: .seconds(1))       // nothing yet
/// clock.advance(by: .seconds(1))       // "ping" is processed here
/// ```
public final class TestClock: MachineClock {
    private struct WakeUp {
        var deadline: Duration
        var sequence: UInt64
        var body: @Sendable () -> Void
    }

    private struct Timeline {
        var now: Duration
        var wakeUps: [WakeUp] = []
        var sequence: UInt64 = 0
    }

    private let timeline: Mutex<Timeline>

    /// A clock reading `now` (zero by default).
    public init(now: Duration = .zero) {
        timeline = Mutex(Timeline(now: now))
    }

    /// The virtual time: changes only when the clock is advanced.
    public var now: Duration { timeline.withLock { $0.now } }

    /// Records a wake-up; `body` runs when ``advance(by:)`` or ``advance(to:)`` passes `deadline`.
    public func wakeUp(at deadline: Duration, _ body: @escaping @Sendable () -> Void) {
        timeline.withLock { timeline in
            timeline.sequence += 1
            timeline.wakeUps.append(WakeUp(deadline: deadline, sequence: timeline.sequence, body: body))
        }
    }

    /// The number of wake-ups waiting (some may find nothing left to do when they fire).
    public var pendingWakeUps: Int { timeline.withLock { $0.wakeUps.count } }

    /// The earliest pending wake-up's deadline, or `nil`.
    public var nextDeadline: Duration? {
        timeline.withLock { $0.wakeUps.map(\.deadline).min() }
    }

    /// Moves time forward by `duration`, firing every wake-up that falls due, in order.
    ///
    /// ```swift
    /// clock.advance(by: .milliseconds(250))
    /// ```
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves time forward to `deadline` (never backwards), firing every wake-up due by then in
    /// deadline order (ties in the order they were requested). Time reads each wake-up's
    /// deadline while it fires.
    public func advance(to deadline: Duration) {
        while let next = takeNext(dueBy: deadline) {
            next()
        }
    }

    /// Removes the earliest wake-up due by `deadline` and sets `now` to its deadline; when none
    /// is due, sets `now` to `deadline` and returns `nil`.
    private func takeNext(dueBy deadline: Duration) -> (@Sendable () -> Void)? {
        timeline.withLock { timeline in
            var best: Int?
            for (i, wake) in timeline.wakeUps.enumerated() where wake.deadline <= deadline {
                if let b = best {
                    let other = timeline.wakeUps[b]
                    if (wake.deadline, wake.sequence) < (other.deadline, other.sequence) { best = i }
                } else {
                    best = i
                }
            }
            guard let best else {
                timeline.now = max(timeline.now, deadline)
                return nil
            }
            let wake = timeline.wakeUps.remove(at: best)
            timeline.now = max(timeline.now, wake.deadline)
            return wake.body
        }
    }
}
