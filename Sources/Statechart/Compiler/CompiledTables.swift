import CStateCore

/// What ``ChartCompiler/compile(_:)`` hands to ``CompiledChart``: the C tables (allocated by the
/// compiler, owned by the compiled chart from then on, which frees them with ``deallocate()``)
/// and the Swift-side tables the runtime reads by the same indices.
struct CompiledTables {
    let chart: UnsafeMutablePointer<sc_chart>
    let states: UnsafeMutableBufferPointer<sc_state>
    let transitions: UnsafeMutableBufferPointer<sc_transition>
    let events: UnsafeMutableBufferPointer<sc_event_info>
    let targets: UnsafeMutableBufferPointer<sc_id>
    let descriptors: UnsafeMutableBufferPointer<sc_id>

    /// State ids and kinds in document order (index 0: the chart root).
    let stateIDs: [String]
    let kinds: [sc_state_kind]
    /// State id → index; every id is unique once compilation succeeded.
    let stateIndex: [String: Int]
    let eventTable: EventTable
    /// Guards and action lists by the ids the tables carry.
    let guards: [GuardBox]
    let actions: [[ActionBox]]
    let invocations: [Int: [Invocation]]
    let doneData: [Int: DoneData]

    func deallocate() {
        chart.deallocate()
        states.deallocate()
        transitions.deallocate()
        events.deallocate()
        targets.deallocate()
        descriptors.deallocate()
    }
}
