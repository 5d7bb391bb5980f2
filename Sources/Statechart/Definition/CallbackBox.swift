/// An action in a box of its own, made where its closure is made (the typed DSL's assembler,
/// the SCXML builder; the public `[Action]` properties box what they are given), and called by
/// the runtime's action callback (`MachineRuntime+GuardsAndActions.swift`) through the chart's
/// ``CallbackTable``.
///
/// Why a box: a closure kept in a generic container (an `[Action]` array, a generic class's
/// field) is stored in its most general form, and each time it is read back out as an
/// ``Action`` it is wrapped in a reabstraction thunk. A box is a class reference, which arrays
/// carry as a pointer, and its closure, a `let` of the concrete type, keeps its natural form
/// from where it is made to where the callback calls it: one indirect call, no retain.
///
/// ```swift
/// let box = ActionBox { ctx in ctx.raise("done") }
/// state.entryBoxes.append(box)            // what `state.onEntry.append { ... }` does
/// ```
///
/// A box may hold an argument beside its closure (``CallbackArgument``): the callback puts it
/// in the ``ActionContext`` it makes (``ActionContext/argument``), so the closure reaches it
/// one dependent load sooner than through its captures. A typed chart's action is boxed with
/// the chart's maps' callback block (`TypedChartMaps.callbackArgument`) as the argument, which
/// its typed context (``StateMachine/Context``) reads; the SCXML builder passes its session.
@usableFromInline
package final class ActionBox: @unchecked Sendable {
    // @unchecked: immutable (its argument's owner is Sendable).
    /// The closure the callback calls with a context carrying ``argument``.
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

    /// A typed chart's action, its contexts carrying `maps`' callback block
    /// (`TypedChartMaps.callbackArgument`), from which it makes its typed context.
    @inlinable
    convenience init<State, Event>(typed action: @escaping TypedAction<State, Event>, maps: TypedChartMaps<State, Event>) {
        self.init({ context in action(StateMachine<State, Event>.Context(untyped: context)) },
                  argument: CallbackArgument(maps.callbackArgument, keptBy: maps))
    }

    /// One box for an action list: `boxes` in order, each with its own argument, in the frame
    /// of the one callback that runs the list (the core calls back once per list).
    static func sequence(_ boxes: [ActionBox]) -> ActionBox {
        precondition(!boxes.isEmpty, "an empty action list has no id")
        if boxes.count == 1 { return boxes[0] }
        return ActionBox { context in
            for box in boxes { box.run(context.carrying(argument: box.argument.address)) }
        }
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
/// exist to avoid.
@usableFromInline
package final class GuardBox: @unchecked Sendable {
    // @unchecked: immutable (its argument's owner is Sendable).
    /// The closure the callback calls with a context carrying ``argument``.
    @usableFromInline package let test: Guard
    /// As ``ActionBox/argument``.
    @usableFromInline let argument: CallbackArgument

    /// A guard whose contexts carry `argument` (``ActionContext/argument``).
    @inlinable
    package init(_ test: @escaping Guard, argument: CallbackArgument = .none) {
        self.test = test
        self.argument = argument
    }

    /// A typed chart's guard, its contexts carrying `maps`' callback block
    /// (`TypedChartMaps.callbackArgument`), from which it makes its typed context.
    @inlinable
    convenience init<State, Event>(typed condition: @escaping TypedGuard<State, Event>, maps: TypedChartMaps<State, Event>) {
        self.init({ context in condition(StateMachine<State, Event>.Context(untyped: context)) },
                  argument: CallbackArgument(maps.callbackArgument, keptBy: maps))
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
