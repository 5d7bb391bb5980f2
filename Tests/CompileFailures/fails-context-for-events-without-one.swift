// The old spelling: a context value given to a machine whose events declare none.
// expect: cannot convert value of type 'Tally' to expected argument type 'NoContext'
import Statechart

enum Lamp: Hashable, Sendable { case off, on }
enum Switch: ChartEvent { case toggle }

func check() throws {
    let chart = try TypedChart<Lamp, Switch>(name: "lamp") { StateNode(.off) }
    _ = StateMachine(chart, context: Tally())
}
