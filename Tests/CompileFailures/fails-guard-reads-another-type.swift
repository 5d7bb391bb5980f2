// A guard that takes the context for another type: the chart's context is a Tally.
// expect: cannot convert value of type 'DoorEvent.Context' (aka 'Tally') to specified type 'Ledger'
import Statechart

func check() throws {
    _ = try TypedChart<Door, DoorEvent>(name: "door") {
        StateNode(.closed) {
            On(.knock, to: .open, guard: { ctx in
                let ledger: Ledger = ctx.context
                return ledger.entries.isEmpty
            })
        }
        StateNode(.open)
    }
}
