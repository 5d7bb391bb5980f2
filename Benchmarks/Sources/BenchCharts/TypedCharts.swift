import Statechart

// The benchmark charts written with the typed DSL, state for state and transition for
// transition the same as the SCXML documents in scxml/bench (the comparison tool checks that
// both reach the same configurations and run the same guards and actions).

/// Guard and action calls of one machine; the typed charts' closures count into it.
public final class CallCounters: @unchecked Sendable {
    // @unchecked: a machine runs its callbacks one at a time, on the sending thread; the
    // benchmarks send from one thread. Unchecked exclusivity too, so counting costs what the C
    // host's `calls++` does and the comparison measures the library, not the counter.
    @exclusivity(unchecked) public var guards = 0
    @exclusivity(unchecked) public var actions = 0
    public init() {}
}

// MARK: - 1. turnstile

public enum TurnstileState: Hashable, Sendable { case locked, unlocked }
public enum TurnstileEvent: String, ChartEvent { case coin, push }

public func turnstileChart() throws -> TypedChart<TurnstileState, TurnstileEvent> {
    try TypedChart(name: "turnstile") {
        StateNode(.locked) { On(.coin, to: .unlocked) }
        StateNode(.unlocked) { On(.push, to: .locked) }
    }
}

// MARK: - 2. hierarchical

public enum HierarchicalState: Hashable, Sendable {
    case A, A1, A11, a111, a112, A12, a121, A2, A21, a211, a212
    case B, P, R1, r11, r12, R2, r21, r22, B2, B21, b211
}
public enum HierarchicalEvent: String, ChartEvent { case e1, e2, e3, e4 }

public func hierarchicalChart() throws -> TypedChart<HierarchicalState, HierarchicalEvent> {
    try TypedChart(name: "hierarchical", initial: .a111) {
        StateNode(.A, initial: .A1) {
            On(.e4, to: .b211)
            StateNode(.A1, initial: .A11) {
                On(.e2, to: .a121)
                StateNode(.A11, initial: .a111) {
                    On(.e3, to: .A12)
                    StateNode(.a111) { On(.e1, to: .a211) }
                    StateNode(.a112) { On(.e1, to: .a111) }
                }
                StateNode(.A12) {
                    StateNode(.a121) { On(.e4, to: .a111) }
                }
            }
            StateNode(.A2, initial: .A21) {
                On(.e3, to: .a112)
                StateNode(.A21, initial: .a211) {
                    StateNode(.a211) { On(.e2, to: .P) }
                    StateNode(.a212) { On(.e2, to: .a211) }
                }
            }
        }
        StateNode(.B, initial: .P) {
            On(.e1, to: .a111)
            Parallel(.P) {
                On(.e3, to: .b211)
                StateNode(.R1, initial: .r11) {
                    StateNode(.r11) { On(.e1, to: .r12) }
                    StateNode(.r12) { On(.e2, to: .r11) }
                }
                StateNode(.R2, initial: .r21) {
                    StateNode(.r21) { On(.e2, to: .r22) }
                    StateNode(.r22) { On(.e1, to: .r21) }
                }
            }
            StateNode(.B2, initial: .B21) {
                On(.e2, to: .P)
                StateNode(.B21) {
                    StateNode(.b211) { On(.e4, to: .a111) }
                }
            }
        }
    }
}

// MARK: - 3. deep

public enum DeepEvent: String, ChartEvent { case a, b, c, d }

/// Chains of compound states named `prefix + level`, for levels `levels`, around `inner`.
private func chain(_ prefix: String, _ levels: ClosedRange<Int>,
                   @ChartBuilder<String, DeepEvent> inner: () -> ChartContent<String, DeepEvent>)
    -> ChartContent<String, DeepEvent> {
    var content = inner()
    for level in levels.reversed() {
        let body = content
        content = ChartContent { StateNode(prefix + String(level)) { body } }
    }
    return content
}

private extension ChartContent {
    init(@ChartBuilder<State, Event> _ body: () -> ChartContent<State, Event>) { self = body() }
}

public func deepChart() throws -> TypedChart<String, DeepEvent> {
    // ll16 -a-> lr16 -b-> rl16 -c-> rr16 -d-> ll16
    func branch(_ top: String) -> ChartContent<String, DeepEvent> {
        chain(top, 1...8) {
            for sub in ["L", "R"] {
                let leaf = (top + sub).lowercased() + "16"
                let (event, target): (DeepEvent, String) = switch leaf {
                case "ll16": (.a, "lr16")
                case "lr16": (.b, "rl16")
                case "rl16": (.c, "rr16")
                default: (.d, "ll16")
                }
                chain(top + sub, 9...15) {
                    StateNode(leaf) { On(event, to: target) }
                }
            }
        }
    }
    return try TypedChart(name: "deep", initial: "ll16") {
        branch("L")
        branch("R")
    }
}

// MARK: - 4. wide

public enum WideEvent: String, ChartEvent { case x, y }

public func wideChart() throws -> TypedChart<String, WideEvent> {
    try TypedChart(name: "wide", initial: "W") {
        Parallel("W") {
            for r in 0..<32 {
                StateNode("r\(r)", initial: "r\(r)_a") {
                    StateNode("r\(r)_a") { On(.x, to: "r\(r)_b") }
                    StateNode("r\(r)_b") { On(.y, to: "r\(r)_a") }
                }
            }
        }
    }
}

// MARK: - 5. guarded

public enum GuardedState: Hashable, Sendable { case run, mode, normal, turbo, work, w0, w1, w2 }
public enum GuardedEvent: String, ChartEvent { case step, toggle }

public func guardedChart(counting counters: CallCounters) throws -> TypedChart<GuardedState, GuardedEvent> {
    let work: [GuardedState] = [.w0, .w1, .w2]
    return try TypedChart(name: "guarded", initial: .run) {
        Parallel(.run) {
            StateNode(.mode, initial: .normal) {
                StateNode(.normal) { On(.toggle, to: .turbo) { _ in counters.actions += 1 } }
                StateNode(.turbo) { On(.toggle, to: .normal) { _ in counters.actions += 1 } }
            }
            StateNode(.work, initial: .w0) {
                for (i, state) in work.enumerated() {
                    StateNode(state) {
                        OnEntry { _ in counters.actions += 1 }
                        OnExit { _ in counters.actions += 1 }
                        On(.step, to: work[(i + 2) % 3], guard: { ctx in
                            counters.guards += 1
                            return ctx.isActive(.turbo)
                        }, action: { _ in counters.actions += 1 })
                        On(.step, to: work[(i + 1) % 3], guard: { ctx in
                            counters.guards += 1
                            return ctx.isActive(.normal)
                        }, action: { _ in counters.actions += 1 })
                    }
                }
            }
        }
    }
}

// MARK: - 5b. guarded, with a typed context

/// The context of ``guardedContextChart(counting:)``: written by every action, read by every guard.
public struct GuardedTally: Sendable { public var actions = 0 }

public enum GuardedContextEvent: String, ChartEvent {
    case step, toggle
    public typealias Context = GuardedTally
}

/// ``guardedChart(counting:)`` with a typed context: every guard also reads it
/// (`ctx.context.actions`), every action also writes it (`ctx.context.actions += 1`); the calls
/// are counted into `counters` as there, so the runner is checked against the C core.
public func guardedContextChart(counting counters: CallCounters) throws -> TypedChart<GuardedState, GuardedContextEvent> {
    let work: [GuardedState] = [.w0, .w1, .w2]
    return try TypedChart(name: "guarded", initial: .run) {
        Parallel(.run) {
            StateNode(.mode, initial: .normal) {
                StateNode(.normal) { On(.toggle, to: .turbo) { ctx in counters.actions += 1; ctx.context.actions += 1 } }
                StateNode(.turbo) { On(.toggle, to: .normal) { ctx in counters.actions += 1; ctx.context.actions += 1 } }
            }
            StateNode(.work, initial: .w0) {
                for (i, state) in work.enumerated() {
                    StateNode(state) {
                        OnEntry { ctx in counters.actions += 1; ctx.context.actions += 1 }
                        OnExit { ctx in counters.actions += 1; ctx.context.actions += 1 }
                        On(.step, to: work[(i + 2) % 3], guard: { ctx in
                            counters.guards += 1
                            return ctx.context.actions >= 0 && ctx.isActive(.turbo)
                        }, action: { ctx in counters.actions += 1; ctx.context.actions += 1 })
                        On(.step, to: work[(i + 1) % 3], guard: { ctx in
                            counters.guards += 1
                            return ctx.context.actions >= 0 && ctx.isActive(.normal)
                        }, action: { ctx in counters.actions += 1; ctx.context.actions += 1 })
                    }
                }
            }
        }
    }
}
