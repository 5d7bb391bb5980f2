// A machine made with a context value of another type than the events declare.
// expect: cannot convert value of type 'Ledger' to expected argument type 'DoorEvent.Context' (aka 'Tally')
import Statechart

func check() throws {
    let chart = try TypedChart<Door, DoorEvent>(name: "door") { StateNode(.closed) }
    let door = StateMachine(chart, context: Ledger())
}
