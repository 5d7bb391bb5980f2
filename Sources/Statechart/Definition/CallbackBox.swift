import CMachineLock

/// An action in a box of its own, made where its closure is made (the typed DSL's assembler,
/// the SCXML builder; the public `[Action]` properties box what they are given).
///
/// Why: a closure kept in a generic container (an `[Action]` array, a generic class's field)
/// is stored in its most general form, its argument passed indirectly, and each time it is
/// read back out as an ``Action`` it is wrapped in a reabstraction thunk: a typed chart's
/// action went through two such trips, so the dispatch path made three calls before the
/// user's closure (about 40 instructions per action). A box is a class reference, which arrays
/// carry as a pointer, and its closure, a `let` of the concrete type, keeps its natural form
/// from where it is made to where the C trampoline calls it (`machine_trampoline.h`, which
/// copies its two words out of it, `CallbackTable`): one indirect call.
///
/// ```swift
/// let box = ActionBox { ctx in ctx.raise("done") }
/// state.entryBoxes.append(box)            // what `state.onEntry.append { ... }` does
/// ```
///
/// A box may hold an argument beside its closure (``CallbackArgument``): the dispatch path puts
/// it in the ``ActionContext`` it makes (``ActionContext/argument``), loaded beside the closure,
/// so the closure reaches it one dependent load sooner than through its captures. A typed chart's action is boxed as it is, with the chart's maps' callback block
/// (`TypedChartMaps.callbackArgument`) as the argument, and called as an untyped one, since a
/// typed context (``StateMachine/Context``) is that context and nothing else: wrapping it in an
/// untyped closure that made the typed context cost a second indirect call and a frame per
/// callback (about 16 instructions, and one more load in the chain the dispatch waits on). The SCXML builder passes its session.
@usableFromInline
package final class ActionBox: @unchecked Sendable {
    // @unchecked: immutable (its argument's owner is Sendable).
    /// The closure the dispatch path calls with a context carrying ``argument``.
    @usableFromInline package let run: Action
    /// What the closure's contexts must carry: a typed chart's maps' callback block, an SCXML
    /// session; or none.
    @usableFromInline let argument: CallbackArgument

    /// An action whose contexts carry `argument` (``ActionContext/argument``).
    @inlinable
    package init(_ run: @escaping Action, argument: CallbackArgument = .none) {
        self.run = run
        self.argument = argument
    }

    /// A typed chart's action: called as an untyped one (``TypedCallbackABI``), its contexts
    /// carrying `maps`' callback block (`TypedChartMaps.callbackArgument`).
    @inlinable
    convenience init<State, Event>(typed action: @escaping TypedAction<State, Event>, maps: TypedChartMaps<State, Event>) {
        self.init(TypedCallbackABI.untyped(action), argument: CallbackArgument(maps.callbackArgument, keptBy: maps))
    }

    /// The action as an untyped closure a definition may hand out and anyone may box again:
    /// one with an argument puts it in the context it is given.
    package var action: Action {
        guard argument.address != nil else { return run }
        return { [self] context in run(context.carrying(argument: self.argument.address)) }
    }
}

/// A guard in a box of its own, for the reasons ``ActionBox`` gives.
///
/// Two classes of the same shape rather than one generic box: a generic class's closure field
/// is stored in its most general form, which brings back the reabstraction thunks the boxes
/// exist to avoid, and whose two words the C trampolines could not call as they do (the
/// context's words in registers, `machine_trampoline.h`).
@usableFromInline
package final class GuardBox: @unchecked Sendable {
    // @unchecked: immutable (its argument's owner is Sendable).
    /// The closure the dispatch path calls with a context carrying ``argument``.
    @usableFromInline package let test: Guard
    /// As ``ActionBox/argument``.
    @usableFromInline let argument: CallbackArgument

    /// A guard whose contexts carry `argument` (``ActionContext/argument``).
    @inlinable
    package init(_ test: @escaping Guard, argument: CallbackArgument = .none) {
        self.test = test
        self.argument = argument
    }

    /// A typed chart's guard: called as an untyped one (``TypedCallbackABI``), its contexts
    /// carrying `maps`' callback block (`TypedChartMaps.callbackArgument`).
    @inlinable
    convenience init<State, Event>(typed condition: @escaping TypedGuard<State, Event>, maps: TypedChartMaps<State, Event>) {
        self.init(TypedCallbackABI.untyped(condition), argument: CallbackArgument(maps.callbackArgument, keptBy: maps))
    }

    /// The guard as an untyped closure (see ``ActionBox/action``).
    package var condition: Guard {
        guard argument.address != nil else { return test }
        return { [self] context in test(context.carrying(argument: self.argument.address)) }
    }
}

/// What a boxed callback's contexts carry as their argument (``ActionContext/argument``): an
/// address, and the object that keeps the memory there alive for as long as the box lives.
@usableFromInline
package struct CallbackArgument: @unchecked Sendable {
    // @unchecked: `address` points into `owner`, which is Sendable and immutable once shared.
    @usableFromInline let address: UnsafeRawPointer?
    @usableFromInline let owner: (AnyObject & Sendable)?

    /// No argument: the contexts carry nil.
    @usableFromInline static let none = CallbackArgument(address: nil, owner: nil)

    @inlinable
    init(address: UnsafeRawPointer?, owner: (AnyObject & Sendable)?) {
        self.address = address
        self.owner = owner
    }

    /// The object itself (an SCXML session), kept by the box.
    package init(_ object: AnyObject & Sendable) {
        self.init(address: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), owner: object)
    }

    /// Memory that `owner` keeps (a typed chart's maps' callback block).
    @inlinable
    init(_ address: UnsafeRawPointer, keptBy owner: AnyObject & Sendable) {
        self.init(address: address, owner: owner)
    }
}

/// A typed action or guard seen as an untyped one, without a wrapping closure.
///
/// Why this is sound: ``StateMachine/Context`` has exactly one stored property, the
/// ``ActionContext`` (its maps travel in that context, ``ActionContext/argument``), so it has
/// the context's layout, and Swift passes a struct of one stored property exactly as it passes
/// that property: a closure taking the typed context and one taking the untyped context are
/// called the same way (the same registers, the same ownership; both contexts are trivial).
/// `StateMachine.Context.layoutMatchesUntyped` checks the layout half whenever a typed callback
/// is boxed (in release builds too), `TypedCallbacksReusedTests` checks that the context has one
/// stored property, and every typed test runs through this path.
///
/// The closures are cast inside cells (structs of one closure field), not as themselves:
/// `unsafeBitCast` is generic, and a closure passed as a generic value is first converted to
/// its most general form (arguments passed indirectly) by a reabstraction thunk, and converted
/// back by another (both measured: 809 -> 931 instructions per typed guarded event). A
/// closure stored in a struct field keeps the form of the field's declared type.
@usableFromInline
enum TypedCallbackABI {
    @usableFromInline struct TypedActionCell<State: Hashable & Sendable, Event: ChartEvent> {
        @usableFromInline let action: TypedAction<State, Event>
        @inlinable init(_ action: @escaping TypedAction<State, Event>) { self.action = action }
    }
    @usableFromInline struct TypedGuardCell<State: Hashable & Sendable, Event: ChartEvent> {
        @usableFromInline let condition: TypedGuard<State, Event>
        @inlinable init(_ condition: @escaping TypedGuard<State, Event>) { self.condition = condition }
    }
    @usableFromInline struct ActionCell { @usableFromInline let action: Action }
    @usableFromInline struct GuardCell { @usableFromInline let condition: Guard }

    @inlinable @inline(__always)
    static func untyped<State, Event>(_ action: @escaping TypedAction<State, Event>) -> Action {
        // Checked in release builds too: once per callback when the chart is built, never per call.
        precondition(StateMachine<State, Event>.Context.layoutMatchesUntyped,
                     "StateMachine.Context must be laid out as ActionContext alone (TypedCallbackABI)")
        return unsafeBitCast(TypedActionCell(action), to: ActionCell.self).action
    }

    @inlinable @inline(__always)
    static func untyped<State, Event>(_ condition: @escaping TypedGuard<State, Event>) -> Guard {
        // Checked in release builds too: once per callback when the chart is built, never per call.
        precondition(StateMachine<State, Event>.Context.layoutMatchesUntyped,
                     "StateMachine.Context must be laid out as ActionContext alone (TypedCallbackABI)")
        return unsafeBitCast(TypedGuardCell(condition), to: GuardCell.self).condition
    }
}

/// A box whose closure the core's C trampolines call (`machine_trampoline.h`), as the
/// function, context and argument ``CallbackTable`` copies out of it.
protocol TrampolineCallable: AnyObject {
    /// The closure's two words and the box's argument, unretained: valid while the box lives.
    var callee: machine_trampoline_callee { get }
}

/// A Swift closure's two words: its function and its context (nil when it captures nothing),
/// read out of a cell (``TypedCallbackABI``'s reason: a closure in a struct field keeps the
/// form of its declared type, so these are the words a direct call of it uses).
private struct ClosureWords {
    let function: UnsafeRawPointer
    let context: UnsafeMutableRawPointer?
}

extension ActionBox: TrampolineCallable {
    var callee: machine_trampoline_callee {
        let words = unsafeBitCast(TypedCallbackABI.ActionCell(action: run), to: ClosureWords.self)
        return machine_trampoline_callee(function: words.function, context: words.context, argument: argument.address)
    }
}

extension GuardBox: TrampolineCallable {
    var callee: machine_trampoline_callee {
        let words = unsafeBitCast(TypedCallbackABI.GuardCell(condition: test), to: ClosureWords.self)
        return machine_trampoline_callee(function: words.function, context: words.context, argument: argument.address)
    }
}
