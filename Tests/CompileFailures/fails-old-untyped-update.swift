// The removed untyped API names its replacement.
// expect: 'updateContext' is unavailable: declare the context type on the event type (typealias Context = T) and write ctx.context.field = value
import Statechart

func check() throws {
    _ = try TypedChart<Door, DoorEvent>(name: "door") {
        StateNode(.closed) { On(.knock, to: .open) { ctx in ctx.updateContext(Tally.self) { $0.attempts += 1 } } }
        StateNode(.open)
    }
}
