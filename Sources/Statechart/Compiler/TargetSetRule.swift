/// Which states can be entered together as one transition's targets (or one state's initial
/// states): the one rule, applied by the compiler to every chart and by the SCXML validator to
/// a document before it is compiled, so the parser refuses exactly what a machine would.
///
/// Two targets conflict when they are the same state, when one contains the other (entering the
/// inner one enters the outer one too, so the configuration the pair describes is not a legal
/// set of targets), or when the nearest state containing both is not a `<parallel>` (they would
/// be active children of one compound state).
///
/// States are numbered in document order, so every subtree is a contiguous range: `state` is
/// inside `ancestor` when `ancestor < state <= lastDescendant(ancestor)`.
///
/// ```swift
/// // <parallel id="p"><state id="a"/><state id="b"/></parallel>: 0 p, 1 a, 2 b
/// let conflict = TargetSetRule.firstConflict(
///     in: [1, 2], parent: { [-1, 0, 0][$0] }, lastDescendant: { [2, 1, 2][$0] }, isParallel: { $0 == 0 })
/// // nil: a and b lie in different regions of p
/// ```
package enum TargetSetRule {
    /// Why two targets cannot be active together.
    package enum Conflict: Equatable, Sendable {
        /// The same state is named twice.
        case same
        /// `first` contains `second` (or `second` contains `first` when `firstIsInner`).
        case nested(firstIsInner: Bool)
        /// Neither contains the other and their nearest common ancestor (`nil`: the document
        /// root) is not a parallel state.
        case separate(commonAncestor: Int?)
    }

    /// The first pair of `targets` (in order) that cannot be active together, or `nil`.
    ///
    /// - Parameters:
    ///   - parent: a state's parent, or a negative number for a top-level state.
    ///   - lastDescendant: the last state (in document order) inside a state, or the state itself.
    ///   - isParallel: whether a state is a parallel state.
    /// - Complexity: O(n² · depth) for n targets.
    package static func firstConflict(
        in targets: [Int], parent: (Int) -> Int, lastDescendant: (Int) -> Int, isParallel: (Int) -> Bool
    ) -> (first: Int, second: Int, conflict: Conflict)? {
        func isInside(_ state: Int, _ ancestor: Int) -> Bool { state > ancestor && state <= lastDescendant(ancestor) }
        for i in targets.indices {
            for j in targets.indices where j > i {
                let a = targets[i], b = targets[j]
                if a == b { return (a, b, .same) }
                if isInside(b, a) { return (a, b, .nested(firstIsInner: false)) }
                if isInside(a, b) { return (a, b, .nested(firstIsInner: true)) }
                var common = parent(a)
                while common >= 0 && !isInside(b, common) { common = parent(common) }
                if common < 0 { return (a, b, .separate(commonAncestor: nil)) }
                if !isParallel(common) { return (a, b, .separate(commonAncestor: common)) }
            }
        }
        return nil
    }
}
