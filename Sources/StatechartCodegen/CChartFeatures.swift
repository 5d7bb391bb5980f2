import CStateCore
import Statechart

/// What a generated chart needs of the core, read from its compiled tables and its content: the
/// `SC_CONFIG_*` switches a firmware builds the core with (`NAME_config.h`) and the facts
/// `SC_MACHINE_SIZE` takes (`NAME_MACHINE_SIZE`).
struct CChartFeatures {
    // The facts of SC_MACHINE_SIZE (sc_core.h), in its argument order.
    var states = 0
    var atomicStates = 0
    var maxActiveAtomic = 1
    var events = 0
    var historyStates = 0
    /// Bits of each history state's record (the descendants of its parent): `history_record_words`
    /// is the sum of their `SC_BIT_WORDS`, which depends on the build's `SC_CONFIG_WORD_BITS`.
    var historyRecordBits: [Int] = []
    var hasInvoke = false
    var hasParallel = false
    var hasGuards = false
    /// Final states (`<final>`): a core built with `SC_CONFIG_NO_FINAL` refuses them.
    var hasFinal = false
    /// The queue capacities `NAME_options` (all zero) gives a machine: the core's defaults, 8 + 8,
    /// or none + 1 for a silent chart (`sc_options` in sc_core.h).
    var internalSlots = 8
    var externalSlots = 8
    /// Nothing in the chart queues an event by itself (no content that raises or sends, no done
    /// events, invocations or history): its machines get the silent queue defaults above.
    var silent = true

    // The features, each an SC_CONFIG_NO_* switch when absent.
    /// Eventless transitions, or final states whose entry raises `done.state.<id>`.
    var needsEventless = false
    /// The internal queue and what fills it: executable content that generates C, a guard calling
    /// a host function (its failure raises `error.execution`), or done events; and any action id
    /// in the tables (a core built with `SC_CONFIG_NO_CONTENT` refuses those, empty or not).
    var needsContent = false
    /// `<send>` with a delay or `<cancel>`.
    var needsDelayed = false
    /// 8, 16 or 32: the narrowest id width every index and count of the tables fits, with the
    /// three ids `SC_NONE`, `SC_EVENT_ANY` and `SC_EVENT_UNKNOWN` kept free at its top and the
    /// transitions below its top bit (sc_chart_check's limits).
    var idBits = 32
    /// 8, 16 or 32: the narrowest `sc_word` holding every state in one word (32 past that), so a
    /// machine's bit arrays take the fewest bytes.
    var wordBits: Int { [8, 16].first { states <= $0 } ?? 32 }

    /// Reads the tables `chart` (flags as written: `chartFlags`); `content` is whether an action
    /// generates C or a guard calls a host function, `delayed` whether the content starts or
    /// cancels timers; `emptyActions` are the action ids written `SC_NONE` (``CTableWriter``).
    init(_ chart: sc_chart, chartFlags: UInt32, guardCount: Int, actionCount: Int, content: Bool, delayed: Bool,
         emptyActions: Set<UInt32> = []) {
        func hasAction(_ id: UInt32) -> Bool { id != SC_NONE && !emptyActions.contains(id) }
        var needsDoneEvents = false
        var hasActions = false
        let quiet = chartFlags & SC_CHART_QUIET_CONTENT != 0
        states = Int(chart.state_count)
        events = Int(chart.event_count)
        for s in 0..<states {
            let state = chart.states[s]
            let kind = sc_state_kind(rawValue: UInt32(state.kind))
            if kind == SC_ATOMIC || kind == SC_FINAL {
                atomicStates += 1
                if kind == SC_FINAL { hasFinal = true }
                if kind == SC_FINAL, state.parent != 0 { needsDoneEvents = true }   // done.state.<parent>
            } else if kind == SC_PARALLEL {
                hasParallel = true
                var child = s + 1
                while child <= Int(state.last_descendant) {     // one more active leaf per region beyond the first
                    maxActiveAtomic += 1
                    child = Int(chart.states[child].last_descendant) + 1
                }
                maxActiveAtomic -= 1
            } else if kind == SC_HISTORY_SHALLOW || kind == SC_HISTORY_DEEP {
                let parent = Int(state.parent)
                historyStates += 1
                historyRecordBits.append(Int(chart.states[parent].last_descendant) - parent)
            }
            if state.flags & UInt8(SC_STATE_HAS_INVOKE) != 0 { hasInvoke = true }
            if hasAction(state.on_entry) || hasAction(state.on_exit) { hasActions = true }
            if (!quiet && (hasAction(state.on_entry) || hasAction(state.on_exit))) || state.done_event != SC_NONE
                || state.flags & UInt8(SC_STATE_HAS_INVOKE | SC_STATE_HAS_HISTORY | SC_STATE_HAS_DONEDATA) != 0 {
                silent = false
            }
            for k in 0..<Int(state.transition_count) {
                let transition = chart.transitions[Int(state.first_transition) + k]
                if transition.event_count == 0 { needsEventless = true }
            }
        }
        for t in 0..<Int(chart.transition_count) {
            let transition = chart.transitions[t]
            if transition.guard != SC_NONE { hasGuards = true }
            if hasAction(transition.action) { hasActions = true }
            if !quiet && hasAction(transition.action) { silent = false }
        }
        maxActiveAtomic = min(maxActiveAtomic, atomicStates)
        needsEventless = needsEventless || needsDoneEvents
        if silent { (internalSlots, externalSlots) = (0, 1) }
        needsContent = content || needsDoneEvents || hasActions
        needsDelayed = delayed
        let largest = [Int(chart.state_count), Int(chart.transition_count), Int(chart.event_count),
                       Int(chart.target_pool_count), Int(chart.descriptor_pool_count), guardCount, actionCount].max() ?? 0
        // Transition ids also stay below the top bit (the core marks enabled entries with it).
        idBits = [8, 16].first { largest <= (1 << $0) - 4 && Int(chart.transition_count) <= 1 << ($0 - 1) } ?? 32
    }

    /// The switches of `NAME_config.h`, in the order written: name, value, and why.
    var switches: [(name: String, value: Int, why: String)] {
        func omit(_ needed: Bool, _ what: String) -> (Int, String) {
            needed ? (0, "the chart has \(what)") : (1, "the chart has no \(what)")
        }
        var list: [(String, Int, String)] = []
        for (name, needed, what) in [("SC_CONFIG_NO_HISTORY", historyStates > 0, "history states"),
                                     ("SC_CONFIG_NO_PARALLEL", hasParallel, "parallel states"),
                                     ("SC_CONFIG_NO_EVENTLESS", needsEventless, "eventless transitions or done events"),
                                     ("SC_CONFIG_NO_GUARDS", hasGuards, "guards"),
                                     ("SC_CONFIG_NO_CONTENT", needsContent, "executable content, host-function conditions or done events"),
                                     ("SC_CONFIG_NO_INVOKE", hasInvoke, "invocations"),
                                     ("SC_CONFIG_NO_FINAL", hasFinal, "final states"),
                                     ("SC_CONFIG_NO_DELAYED", needsDelayed, "delayed sends")] {
            let (value, why) = omit(needed, what)
            list.append((name, value, why))
        }
        list.append(silent
            ? ("SC_CONFIG_NO_QUEUE", 1, "the chart queues no event by itself: no external queue (0 keeps it, for a firmware that posts events, from interrupts say, and runs them later)")
            : ("SC_CONFIG_NO_QUEUE", 0, "the chart's content or done events queue events"))
        list.append(("SC_CONFIG_NO_PLAN_CACHE", 1,
                     "a speed cache, not a feature: left out for the smallest build (0 keeps it, for more RAM per machine; it needs SC_CONFIG_ID_BITS 32 and SC_CONFIG_WORD_BITS 64)"))
        list.append(("SC_CONFIG_NO_TABLE_CHECK", 1,
                     "generated tables: compiled from a chart that passed the full sc_chart_check, so the firmware checks only the features (0 keeps the full check)"))
        list.append(("SC_CONFIG_ID_BITS", idBits, "the narrowest width the chart's ids and counts fit"))
        list.append(("SC_CONFIG_WORD_BITS", wordBits,
                     "the narrowest bit-array word that holds the configuration in one word (any width runs any chart)"))
        return list
    }

    /// `SC_MACHINE_SIZE(...)` of these facts.
    var machineSizeExpression: String {
        let recordWords = historyRecordBits.isEmpty ? "0u"
            : "(" + historyRecordBits.map { "SC_BIT_WORDS(\($0)u)" }.joined(separator: " + ") + ")"
        let arguments = ["\(states)u", "\(atomicStates)u", "\(maxActiveAtomic)u", "\(events)u", "\(historyStates)u", recordWords,
                         "\(hasInvoke ? 1 : 0)u", "\(hasParallel ? 1 : 0)u", "\(hasGuards ? 1 : 0)u", "\(internalSlots)u",
                         "\(externalSlots)u"]
        return "SC_MACHINE_SIZE(" + arguments.joined(separator: ", ") + ")"
    }
}

extension CParts {
    /// The chart's features as generated: its tables with the flags written, and its C content.
    var features: CChartFeatures {
        var chart = compiled.tables.pointee
        chart.flags = chartFlags
        return CChartFeatures(chart, chartFlags: chartFlags, guardCount: names.guards.count, actionCount: names.actions.count,
                              content: actionCases.contains { !$0.1.isEmpty } || !hooks.conditions.isEmpty,
                              delayed: hooks.timers, emptyActions: emptyActions)
    }
}
