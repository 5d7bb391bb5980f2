/// A null-datamodel condition made only of `In()`, `!`, `&&`, `||`, `true` and `false`
/// (``NullExpression/staticCondition``), compiled when the chart is built into tests of state
/// indices: a guard that asks the core whether a state is active, without the datamodel (no
/// expression cache, no hashing of the text, no `DataValue`).
///
/// It gives the value ``NullDatamodel/evaluateCondition(_:)`` gives for the same text: `In()`
/// has no side effects and cannot fail (an id that names no state is never active), so
/// evaluating every operand instead of short-circuiting changes nothing. The general path stays
/// for everything else (host function calls, other literals) and is the reference this one is
/// tested against (`SCXMLMachine.Options.compilesStateTests` off).
///
/// The program is postfix over a stack of at most 64 booleans held in one `UInt64`, in a
/// buffer allocated once: evaluating it allocates nothing and counts no references. State
/// indices are only known once the chart is compiled, so the program is made with the ids and
/// ``resolve(_:)`` fills the indices in before the machine first runs.
final class StateTestCondition: @unchecked Sendable {
    // @unchecked: `program` is written by `resolve` before the machine runs, then only read
    // from guards, which run with the machine held.

    enum Step: Equatable {
        case constant(Bool)
        /// Whether the state at this index is active; -1 for an id no state has.
        case active(Int)
        case not, and, or
    }

    /// The steps; `.active` holds -1 until ``resolve(_:)``.
    private let program: UnsafeMutableBufferPointer<Step>
    /// The state id of each `.active` step, by position in `program`.
    private let ids: [(position: Int, id: String)]

    /// The compiled form of `condition`, or `nil` when it needs more than 64 values on the stack
    /// (the datamodel then evaluates it).
    init?(_ condition: NullCondition) {
        var steps: [Step] = []
        var ids: [(Int, String)] = []
        var depth = 0, deepest = 0
        // Iterative post-order walk: conditions nest up to NullCondition's parse limit.
        enum Item { case visit(NullCondition), emit(Step) }
        var pending: [Item] = [.visit(condition)]
        while let item = pending.popLast() {
            switch item {
            case .emit(let step):
                steps.append(step)
                depth -= 1                      // not: -1 +1; and/or: -2 +1
                if step == .not { depth += 1 }
            case .visit(let node):
                switch node {
                case .constant(let value):
                    steps.append(.constant(value))
                    depth += 1
                case .inState(let id):
                    ids.append((steps.count, id))
                    steps.append(.active(-1))
                    depth += 1
                case .not(let inner):
                    pending.append(.emit(.not))
                    pending.append(.visit(inner))
                case .and(let a, let b):
                    pending.append(.emit(.and))
                    pending.append(.visit(b))
                    pending.append(.visit(a))
                case .or(let a, let b):
                    pending.append(.emit(.or))
                    pending.append(.visit(b))
                    pending.append(.visit(a))
                }
                deepest = max(deepest, depth)
            }
        }
        guard deepest <= 64, depth == 1 else { return nil }
        program = .allocate(capacity: steps.count)
        _ = program.initialize(from: steps)
        self.ids = ids
    }

    deinit { program.deallocate() }

    /// Fills in each `In()`'s state index (`index(id)`, `nil` for an id no state has).
    func resolve(_ index: (String) -> Int?) {
        for (position, id) in ids { program[position] = .active(index(id) ?? -1) }
    }

    /// The condition's value, `isActive(index)` answering for each `In()`.
    @inline(__always)
    func evaluate(_ isActive: (Int) -> Bool) -> Bool {
        if program.count == 1, case .active(let index) = program[0] {   // the usual In('id')
            return index >= 0 && isActive(index)
        }
        var stack: UInt64 = 0                   // bit 0 is the top
        for step in program {
            switch step {
            case .constant(let value): stack = stack &<< 1 | (value ? 1 : 0)
            case .active(let index): stack = stack &<< 1 | (index >= 0 && isActive(index) ? 1 : 0)
            case .not: stack ^= 1
            case .and: stack = (stack &>> 1) & (~1 | (stack & 1))
            case .or: stack = (stack &>> 1) | (stack & 1)
            }
        }
        return stack & 1 != 0
    }
}
