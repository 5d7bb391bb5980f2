import Statechart
import XCTest

/// `ctx.isActive(state)` in typed guards and actions finds a state by its bytes when the state
/// type is trivially copyable (one byte: a direct table; two to eight bytes: a hash table),
/// and through the hashed dictionary otherwise. All three must give the same answers,
/// including `false` for a state value the chart does not contain.
final class TypedStateLookupTests: XCTestCase {
    /// Four bytes, trivially copyable: the open-addressing path.
    struct Room: Hashable, Sendable, CustomStringConvertible {
        var floor: Int16
        var number: Int16
        var description: String { "room\(floor)_\(number)" }
    }

    /// Holds a String: not trivially copyable, so the dictionary path.
    struct Named: Hashable, Sendable, CustomStringConvertible {
        var name: String
        var description: String { name }
    }

    /// A parallel chart: region one toggles between `a` and `b`; region two moves on `go` to
    /// `there` when region one is in `b`, logging what a guard sees of every state.
    func run<State: Hashable & Sendable>(_ p: State, _ r1: State, _ a: State, _ b: State, _ r2: State,
                                         _ here: State, _ there: State, absent: State) throws -> [String] {
        let log = Log()
        let m = try StateMachine<State, E>(clock: TestClock()) {
            Parallel(p) {
                StateNode(r1, initial: a) {
                    StateNode(a) { On(.toggle, to: b) }
                    StateNode(b) { On(.toggle, to: a) }
                }
                StateNode(r2, initial: here) {
                    StateNode(here) {
                        On(.go, to: there, guard: { ctx in
                            log.add("guard: a \(ctx.isActive(a)), b \(ctx.isActive(b)), p \(ctx.isActive(p)), absent \(ctx.isActive(absent))")
                            return ctx.isActive(b)
                        })
                    }
                    StateNode(there)
                }
            }
        }
        try m.start()
        XCTAssertEqual(try m.send(.go), .unhandled)      // region one is in a
        XCTAssertEqual(try m.send(.toggle), .handled)
        XCTAssertEqual(try m.send(.go), .handled)
        XCTAssertEqual(Set(m.configuration), [b, there])
        XCTAssertTrue(m.isActive(there))
        XCTAssertFalse(m.isActive(here))
        XCTAssertFalse(m.isActive(absent))
        return log.take()
    }

    let expected = ["guard: a true, b false, p true, absent false",
                    "guard: a false, b true, p true, absent false"]

    func testOneByteStates() throws {
        XCTAssertEqual(try run(S.p, .a, .a1, .a2, .b, .b1, .b2, absent: .z), expected)
    }

    func testMultiByteTriviallyCopyableStates() throws {
        let r = { (n: Int16) in Room(floor: 3, number: n) }
        XCTAssertEqual(try run(r(0), r(1), r(2), r(3), r(4), r(5), r(6), absent: Room(floor: 4, number: 2)), expected)
    }

    func testStatesThatAreNotTriviallyCopyable() throws {
        let n = { (s: String) in Named(name: s) }
        XCTAssertEqual(try run(n("p"), n("r1"), n("a"), n("b"), n("r2"), n("here"), n("there"), absent: n("nowhere")), expected)
    }
}
