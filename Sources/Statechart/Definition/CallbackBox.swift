/// An action in a box of its own, made where its closure is made (the typed DSL's adapters,
/// the SCXML builder; the public `[Action]` properties box what they are given).
///
/// Why: a closure kept in a generic container (an `[Action]` array, a generic class's field)
/// is stored in its most general form, its argument passed indirectly, and each time it is
/// read back out as an ``Action`` it is wrapped in a reabstraction thunk: a typed chart's
/// action went through two such trips, so the dispatch path made three calls before the
/// user's closure (about 40 instructions per action). A box is a class reference, which arrays
/// carry as a pointer, and its closure, a `let` of the concrete type, keeps its natural form
/// from where it is made to where `MachineRuntime.runAction` calls it: one indirect call.
///
/// ```swift
/// let box = ActionBox { ctx in ctx.raise("done") }
/// state.entryBoxes.append(box)            // what `state.onEntry.append { ... }` does
/// ```
@usableFromInline
package final class ActionBox: Sendable {
    @usableFromInline package let run: Action

    @inlinable
    package init(_ run: @escaping Action) { self.run = run }
}

/// A guard in a box of its own, for the reason ``ActionBox`` gives.
@usableFromInline
package final class GuardBox: Sendable {
    @usableFromInline package let test: Guard

    @inlinable
    package init(_ test: @escaping Guard) { self.test = test }
}
