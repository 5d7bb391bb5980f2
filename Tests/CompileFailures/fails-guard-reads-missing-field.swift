// A guard that reads a field the context type does not have.
// expect: value of type 'DoorEvent.Context' (aka 'Tally') has no member 'entries'
import Statechart

func check() throws {
    _ = try TypedChart<Door, DoorEvent>(name: "door") {
        StateNode(.closed) { On(.knock, to: .open, guard: { ctx in ctx.context.entries.isEmpty }) }
        StateNode(.open)
    }
}
