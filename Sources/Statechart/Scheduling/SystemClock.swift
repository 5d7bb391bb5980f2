import Dispatch

/// Real time: delayed events fire on their own, from a background thread (Dispatch's global
/// queue), through the machine's normal serialized send path.
///
/// This is the default clock of ``Machine`` and ``StateMachine``.
///
/// ```swift
/// let machine = Machine(chart)                       // SystemClock.shared
/// try machine.start()
/// machine.send("timeout", after: .milliseconds(500))   // processed about 0.5 s later
/// ```
public struct SystemClock: MachineClock {
    /// The clock every machine uses unless told otherwise.
    public static let shared = SystemClock()

    private let origin: ContinuousClock.Instant

    /// A clock whose ``now`` counts from the moment it was created.
    public init() {
        origin = ContinuousClock.now
    }

    /// Whether `clock` is the shared clock, or a system clock that tells the same time (one
    /// made at the same instant): a machine on it needs to keep no clock of its own.
    static func isShared(_ clock: any MachineClock) -> Bool {
        isShared(opened: clock)
    }

    /// ``isShared(_:)`` on the opened existential: a type comparison, not a dynamic cast, since
    /// every machine made asks it.
    private static func isShared<Clock: MachineClock>(opened clock: Clock) -> Bool {
        guard Clock.self == SystemClock.self else { return false }
        return unsafeBitCast(clock, to: SystemClock.self).origin == shared.origin
    }

    /// The time since this clock was created.
    public var now: Duration { ContinuousClock.now - origin }

    /// Calls `body` on a background thread once `deadline` has passed.
    public func wakeUp(at deadline: Duration, _ body: @escaping @Sendable () -> Void) {
        let delay = deadline - now
        let nanoseconds: Int
        if delay <= .zero {
            nanoseconds = 0
        } else if delay >= .seconds(Int64.max / 1_000_000_000) {
            nanoseconds = Int.max / 2
        } else {
            let (seconds, attoseconds) = delay.components
            nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: body)
    }
}
