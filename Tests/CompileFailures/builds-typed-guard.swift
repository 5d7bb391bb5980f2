// The control: the typed guard and action build, so the failures below are the type checker's.
import Statechart

func doorChart() throws -> TypedChart<Door, DoorEvent> {
    try TypedChart(name: "door") {
        StateNode(.closed) {
            On(.knock, to: .closed, guard: { ctx in ctx.context.attempts < 2 }) { ctx in ctx.context.attempts += 1 }
            On(.knock, to: .open)
        }
        StateNode(.open)
    }
}
func attempts() throws -> Int {
    let door = StateMachine(try doorChart(), context: Tally())
    return door.context.attempts
}
