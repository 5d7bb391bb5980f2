import CStateCore
import Statechart

/// The C names of one chart's states, events, guards and actions (see ``CNameTable`` for how
/// collisions are resolved), taken from its compiled tables.
///
/// - States: `NAME_ROOT` (index 0, the `<scxml>` root) and `NAME_STATE_<id>`.
/// - Events: `NAME_EVENT_<name>` for every interned name, by id.
/// - Guards: `NAME_GUARD_<source>_<n>` for the condition of the n-th transition of a state.
/// - Actions: `NAME_ACTION_<state>_ENTRY`, `_EXIT`, `_INITIAL` (an `<initial>` or history
///   default's content), `_T<n>` (the n-th transition's content), and `NAME_ACTION_START`.
struct CChartNames {
    let prefix: String
    private(set) var states: [String] = []
    private(set) var events: [String] = []
    /// By guard id.
    private(set) var guards: [UInt32: String] = [:]
    /// By action id.
    private(set) var actions: [UInt32: String] = [:]
    var table = CNameTable()

    /// Where each guard and action id comes from, for the content writer.
    enum ActionSite: Equatable {
        case entry(state: Int)
        case exit(state: Int)
        case initial(state: Int)
        case transition(state: Int, number: Int, index: Int)
        case start
    }
    private(set) var actionSites: [UInt32: ActionSite] = [:]
    /// guard id → (source state, transition number from 1, transition index)
    private(set) var guardSites: [UInt32: (state: Int, number: Int, index: Int)] = [:]

    init(_ compiled: CompiledChart, prefix: String) {
        self.prefix = prefix
        let c = compiled.tables.pointee
        for reserved in ["ROOT", "STATE_COUNT", "EVENT_COUNT", "GUARD_COUNT", "ACTION_COUNT", "CONDITION_COUNT"] {
            table.reserve("\(prefix)_\(reserved)")
        }
        states.append("\(prefix)_ROOT")
        for s in 1..<Int(c.state_count) { states.append(table.unique("\(prefix)_STATE_", compiled.stateIDs[s])) }
        for e in 0..<Int(c.event_count) { events.append(table.unique("\(prefix)_EVENT_", compiled.eventNames[e])) }
        func stateBase(_ s: Int) -> String { s == 0 ? "ROOT" : CNameTable.sanitized(compiled.stateIDs[s]) }
        for s in 0..<Int(c.state_count) {
            let st = c.states[s]
            for k in 0..<Int(st.transition_count) {
                let t = Int(st.first_transition) + k
                let tr = c.transitions[t]
                if tr.guard != SC_NONE {
                    guards[tr.guard] = table.unique("\(prefix)_GUARD_", "\(stateBase(s))_\(k + 1)")
                    guardSites[tr.guard] = (s, k + 1, t)
                }
                if tr.action != SC_NONE {
                    actions[tr.action] = table.unique("\(prefix)_ACTION_", "\(stateBase(s))_T\(k + 1)")
                    actionSites[tr.action] = .transition(state: s, number: k + 1, index: t)
                }
            }
            if st.initial != SC_NONE {
                let action = c.transitions[Int(st.initial)].action
                if action != SC_NONE {
                    actions[action] = table.unique("\(prefix)_ACTION_", s == 0 ? "START" : "\(stateBase(s))_INITIAL")
                    actionSites[action] = s == 0 ? .start : .initial(state: s)
                }
            }
            if st.on_entry != SC_NONE {
                actions[st.on_entry] = table.unique("\(prefix)_ACTION_", "\(stateBase(s))_ENTRY")
                actionSites[st.on_entry] = .entry(state: s)
            }
            if st.on_exit != SC_NONE {
                actions[st.on_exit] = table.unique("\(prefix)_ACTION_", "\(stateBase(s))_EXIT")
                actionSites[st.on_exit] = .exit(state: s)
            }
        }
    }

    /// The C expression of the core id of an event named `name` as the runtime maps it: its enum
    /// name when interned exactly, its longest interned prefix's (with the name in a comment), or
    /// `SC_EVENT_UNKNOWN`.
    func eventExpression(_ name: String, in compiled: CompiledChart) -> String {
        let id = compiled.coreEventID(name)
        if id == SC_EVENT_UNKNOWN { return "SC_EVENT_UNKNOWN /* \(CText.comment(name)) */" }
        if compiled.eventNames[Int(id)] == name { return events[Int(id)] }
        return "\(events[Int(id)]) /* \(CText.comment(name)) */"
    }
}
