import CStateCore
import Statechart

/// Writes a compiled chart's CStateCore tables as C source: `static const` arrays of states,
/// transitions, events, target and descriptor pools, state and event names, and the `sc_chart`
/// that ties them together, all named `NAME_...`. The tables are the compiled chart's own,
/// byte for byte (but for the action ids left out, below), so a C machine runs exactly what the
/// Swift engine runs.
///
/// ```swift
/// let compiled = try CompiledChart(definition)
/// let c = CTableWriter.tables(compiled, name: "turnstile", exported: true)
/// // ... "const sc_chart turnstile_chart = { ... };"
/// ```
public enum CTableWriter {
    /// The tables of `compiled` with every symbol prefixed `name_`; `exported` makes
    /// `name_chart` an external definition (declared `extern` in a header), else `static`.
    /// `chartFlags` is written as `sc_chart.flags` (`SC_CHART_QUIET_CONTENT`: the C content of
    /// the chart queues nothing, see ``CGeneratedFiles/chartFlags``). `emptyActions` are action
    /// ids whose content does nothing: they are written `SC_NONE`, so a chart whose content is all
    /// empty runs on a core built with `SC_CONFIG_NO_CONTENT`, and no call is made for them.
    ///
    /// - Complexity: O(states + transitions + events + pools).
    public static func tables(_ compiled: CompiledChart, name: String, exported: Bool, chartFlags: UInt32 = 0,
                              emptyActions: Set<UInt32> = []) -> String {
        let c = compiled.tables.pointee
        func action(_ id: UInt32) -> String { CText.id(emptyActions.contains(id) ? SC_NONE : id) }
        var out = "/* \(CText.comment(compiled.name)): \(c.state_count) states, \(c.transition_count) transitions, \(c.event_count) events */\n"
        out += "static const sc_state \(name)_states[] = {\n"
        for s in 0..<Int(c.state_count) {
            let st = c.states[s]
            out += "    /* \(s) \(CText.comment(compiled.stateIDs[s])) */\n"
            out += "    {.parent=\(CText.id(st.parent)),.last_descendant=\(st.last_descendant)u,"
                + ".first_transition=\(st.first_transition)u,.transition_count=\(st.transition_count)u,"
                + ".initial=\(CText.id(st.initial)),.on_entry=\(action(st.on_entry)),.on_exit=\(action(st.on_exit)),"
                + ".done_event=\(CText.id(st.done_event)),.own_mask=UINT64_C(0x\(String(st.own_mask, radix: 16))),"
                + ".path_mask=UINT64_C(0x\(String(st.path_mask, radix: 16))),.kind=\(st.kind),.flags=\(st.flags),"
                + ".depth=\(st.depth)},\n"
        }
        out += "};\nstatic const sc_transition \(name)_transitions[] = {\n"
        for t in 0..<Int(c.transition_count) {
            let tr = c.transitions[t]
            out += "    {.source=\(tr.source)u,.domain=\(CText.id(tr.domain)),.targets_offset=\(tr.targets_offset)u,"
                + ".target_count=\(tr.target_count)u,.events_offset=\(tr.events_offset)u,"
                + ".event_count=\(tr.event_count)u,.guard=\(CText.id(tr.guard)),.action=\(action(tr.action)),"
                + ".flags=\(tr.flags)u},\n"
        }
        out += "};\n"
        if c.event_count > 0 {
            out += "static const sc_event_info \(name)_events[] = {\n"
            for e in 0..<Int(c.event_count) {
                let ev = c.events[e]
                out += "    {.prefix=\(CText.id(ev.prefix)),.mask=UINT64_C(0x\(String(ev.mask, radix: 16)))},\n"
            }
            out += "};\n"
        }
        out += pool("\(name)_targets", c.targets, Int(c.target_pool_count))
        out += pool("\(name)_descriptors", c.descriptors, Int(c.descriptor_pool_count))
        out += "static const char *const \(name)_state_names[] = {\n"
        out += compiled.stateIDs.map { "    " + CText.literal($0) + ",\n" }.joined()
        out += "};\n"
        if c.event_count > 0 {
            out += "static const char *const \(name)_event_names[] = {\n"
            out += compiled.eventNames.map { "    " + CText.literal($0) + ",\n" }.joined()
            out += "};\n"
        }
        out += """
        \(exported ? "" : "static ")const sc_chart \(name)_chart = {
            .state_count = \(c.state_count)u, .transition_count = \(c.transition_count)u,
            .event_count = \(c.event_count)u, .target_pool_count = \(c.target_pool_count)u,
            .descriptor_pool_count = \(c.descriptor_pool_count)u,
            .states = \(name)_states, .transitions = \(name)_transitions,
            .events = \(c.event_count > 0 ? "\(name)_events" : "NULL"),
            .targets = \(c.target_pool_count > 0 ? "\(name)_targets" : "NULL"),
            .descriptors = \(c.descriptor_pool_count > 0 ? "\(name)_descriptors" : "NULL"),
            .state_names = \(name)_state_names,
            .event_names = \(c.event_count > 0 ? "\(name)_event_names" : "NULL"),\(flagsField(chartFlags))
        };

        """
        return out
    }

    /// `sc_chart.flags`, by name, when any is set.
    private static func flagsField(_ flags: UInt32) -> String {
        guard flags != 0 else { return "" }
        var names: [String] = []
        if flags & SC_CHART_QUIET_CONTENT != 0 { names.append("SC_CHART_QUIET_CONTENT") }
        if flags & SC_CHART_DELAYED_SENDS != 0 { names.append("SC_CHART_DELAYED_SENDS") }
        let other = flags & ~(SC_CHART_QUIET_CONTENT | SC_CHART_DELAYED_SENDS)
        if other != 0 { names.append("0x\(String(other, radix: 16))u") }
        return "\n    .flags = \(names.joined(separator: " | ")),"
    }

    private static func pool(_ name: String, _ values: UnsafePointer<sc_id>?, _ count: Int) -> String {
        guard count > 0, let values else { return "" }
        var out = "static const sc_id \(name)[] = {"
        for k in 0..<count {
            if k % 16 == 0 { out += "\n   " }
            out += " \(CText.id(values[k])),"
        }
        return out + "\n};\n"
    }
}
