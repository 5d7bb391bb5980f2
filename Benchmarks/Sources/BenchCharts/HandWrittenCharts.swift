import Statechart

// The charts as a Swift programmer would write them by hand, without any library: an enum of
// states and a `switch` over (state, event). The floor for any Swift state machine, and what the
// comparison section of docs/PERFORMANCE.md sets the library against. Same cycle, same
// configurations read back (checked against the C core by the comparison tool); no entry or exit
// code, since these charts have none.

/// The turnstile as a hand-written `switch`: the floor for any Swift state machine.
public enum HandWrittenTurnstile {
    public enum State: Sendable { case locked, unlocked }

    @inline(__always)
    static func next(_ state: State, _ event: TurnstileEvent) -> State {
        switch (state, event) {
        case (.locked, .coin): return .unlocked
        case (.unlocked, .push): return .locked
        default: return state
        }
    }

    public static func runner() throws -> Runner {
        let sequence = try BenchChart.turnstile.events().map { name -> TurnstileEvent in
            guard let event = TurnstileEvent(rawValue: name) else { throw BenchError("no event \(name)") }
            return event
        }
        var state = State.locked
        var position = 0
        return Runner(
            label: "switch",
            dispatch: { count in
                var s = state, j = position
                sequence.withUnsafeBufferPointer { events in
                    for _ in 0..<count {
                        s = next(s, events[j])
                        j += 1
                        if j == events.count { j = 0 }
                    }
                }
                state = s
                position = j
            },
            configuration: { [state == .locked ? "locked" : "unlocked"] },
            counts: { (nil, nil) },
            resetCounts: {})
    }
}


/// The hierarchical chart (scxml/bench/hierarchical.scxml) by hand: its seven reachable
/// configurations as an enum (the parallel state P as a pair of region states), and every
/// (configuration, event) pair answered as SCXML's selection would: the deepest state's
/// transition first, then its ancestors'; in P each region selects separately and a later
/// transition whose source is not inside an earlier one's source is dropped (conflict rule).
public enum HandWrittenHierarchical {
    public enum Region1: Sendable { case r11, r12 }
    public enum Region2: Sendable { case r21, r22 }
    public enum State: Sendable, Equatable {
        case a111, a112, a121, a211, a212, p(Region1, Region2), b211
    }

    @inline(__always)
    static func next(_ state: State, _ event: HierarchicalEvent) -> State {
        switch (state, event) {
        // In A: a111 e1 (own), A1 e2, A11 e3, A e4.
        case (.a111, .e1): return .a211
        case (.a111, .e2), (.a111, .e3): return .a121
        case (.a112, .e1): return .a111
        case (.a112, .e2), (.a112, .e3): return .a121
        case (.a121, .e4): return .a111
        case (.a121, .e2): return .a121                 // A1's e2: exits and re-enters a121
        case (.a121, .e1), (.a121, .e3): return state
        case (.a211, .e2): return .p(.r11, .r21)
        case (.a212, .e2): return .a211
        case (.a211, .e3), (.a212, .e3): return .a112   // A2's e3
        case (.a211, .e1), (.a212, .e1): return state
        case (.a111, .e4), (.a112, .e4), (.a211, .e4), (.a212, .e4): return .b211
        // In P: r11 e1 -> r12 and r22 e1 -> r21 win over B's e1 (their sources lie inside B);
        // only when neither region has its own e1 does B's e1 -> a111 fire.
        case (.p(.r12, .r21), .e1): return .a111
        case (.p, .e1): return .p(.r12, .r21)
        case let (.p(r1, r2), .e2): return .p(r1 == .r12 ? .r11 : r1, r2 == .r21 ? .r22 : r2)
        case (.p, .e3): return .b211
        case (.p, .e4): return state
        // In B2: b211 e4 (own), B2 e2, B e1.
        case (.b211, .e4), (.b211, .e1): return .a111
        case (.b211, .e2): return .p(.r11, .r21)
        case (.b211, .e3): return state
        }
    }

    static func configuration(_ state: State) -> [String] {
        switch state {
        case .a111: return ["a111"]
        case .a112: return ["a112"]
        case .a121: return ["a121"]
        case .a211: return ["a211"]
        case .a212: return ["a212"]
        case let .p(r1, r2): return [r1 == .r11 ? "r11" : "r12", r2 == .r21 ? "r21" : "r22"]
        case .b211: return ["b211"]
        }
    }

    public static func runner() throws -> Runner {
        let sequence = try BenchChart.hierarchical.events().map { name -> HierarchicalEvent in
            guard let event = HierarchicalEvent(rawValue: name) else { throw BenchError("no event \(name)") }
            return event
        }
        var state = State.a111
        var position = 0
        return Runner(
            label: "switch",
            dispatch: { count in
                var s = state, j = position
                sequence.withUnsafeBufferPointer { events in
                    for _ in 0..<count {
                        s = next(s, events[j])
                        j += 1
                        if j == events.count { j = 0 }
                    }
                }
                state = s
                position = j
            },
            configuration: { configuration(state) },
            counts: { (nil, nil) },
            resetCounts: {})
    }
}
