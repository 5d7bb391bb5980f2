import Statechart

/// The classic coin-operated turnstile: a coin unlocks it, a push lets one person through and
/// locks it again. Pushing a locked turnstile sounds the alarm; a coin in an unlocked one is
/// refunded.
///
/// ```swift
/// let turnstile = try Turnstile(hardware: gate)
/// try turnstile.insertCoin()      // gate.unlock()
/// try turnstile.push()            // gate.lock()
/// ```
public final class Turnstile: Sendable {
    public enum State: String, Hashable, Sendable, Codable { case locked, unlocked }
    public enum Event: ChartEvent, Codable { case coin, push }

    /// What the turnstile's actions drive.
    public protocol Hardware: Sendable {
        func unlock()
        func lock()
        func soundAlarm()
        func refund()
    }

    /// The chart: two states, four transitions.
    public static func chart(hardware: some Hardware) throws -> TypedChart<State, Event> {
        try TypedChart(name: "turnstile") {
            StateNode(.locked) {
                On(.coin, to: .unlocked) { _ in hardware.unlock() }
                On(.push) { _ in hardware.soundAlarm() }                 // targetless: stays locked
            }
            StateNode(.unlocked) {
                On(.push, to: .locked) { _ in hardware.lock() }
                On(.coin) { _ in hardware.refund() }
            }
        }
    }

    /// The running machine.
    public let machine: StateMachine<State, Event>

    /// A started turnstile driving `hardware`.
    public init(hardware: some Hardware, clock: any MachineClock = SystemClock.shared) throws {
        machine = StateMachine(try Self.chart(hardware: hardware), clock: clock)
        try machine.start()
    }

    /// Whether the turnstile is locked.
    public var isLocked: Bool { machine.isActive(.locked) }

    /// Inserts a coin.
    @discardableResult
    public func insertCoin() throws -> SendOutcome { try machine.send(.coin) }

    /// Pushes the bar.
    @discardableResult
    public func push() throws -> SendOutcome { try machine.send(.push) }
}
