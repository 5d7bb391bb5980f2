import Statechart

/// The phases of matter, Tinder's StateMachine example: solid, liquid and gas, with a side
/// effect logged on each change. Shows ``StateMachine/transition(on:)``, which reports the
/// transition taken (or why none was) the way `Transition.Valid`/`Invalid` do.
///
/// ```swift
/// let matter = try Matter.machine { print($0) }
/// let result = try matter.transition(on: .melt)   // logs "melted"
/// result.before                                   // [.solid]
/// result.after                                    // [.liquid]
/// try matter.transition(on: .condense).isHandled  // false: a liquid does not condense
/// ```
public enum Matter {
    public enum State: String, Hashable, Sendable, Codable { case solid, liquid, gas }
    public enum Event: ChartEvent, Codable { case melt, freeze, vaporize, condense }

    /// The chart; `log` receives a message for each phase change.
    public static func chart(log: @escaping @Sendable (String) -> Void) throws -> TypedChart<State, Event> {
        try TypedChart(name: "matter") {
            StateNode(.solid) {
                On(.melt, to: .liquid) { _ in log("melted") }
            }
            StateNode(.liquid) {
                On(.freeze, to: .solid) { _ in log("frozen") }
                On(.vaporize, to: .gas) { _ in log("vaporized") }
            }
            StateNode(.gas) {
                On(.condense, to: .liquid) { _ in log("condensed") }
            }
        }
    }

    /// A started machine, solid to begin with.
    public static func machine(clock: any MachineClock = SystemClock.shared,
                               log: @escaping @Sendable (String) -> Void) throws -> StateMachine<State, Event> {
        let machine = StateMachine(try chart(log: log), clock: clock)
        try machine.start()
        return machine
    }
}
