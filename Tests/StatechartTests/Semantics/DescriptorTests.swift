import Statechart
import XCTest

/// SCXML event descriptors: exact names, dot-token prefixes, `prefix.*`, `*`, and lists.
final class DescriptorTests: XCTestCase {
    let c = Charts()

    func machine() throws -> Machine {
        try c.start([
            c.state("s", on: [
                c.on("error.send", "error.send"),
                c.on("error", "error"),
                c.on("a b", "a-or-b"),
                c.on("net.*", "net"),
                c.on("*", "any"),
            ]),
        ])
    }

    func handled(_ m: Machine, _ event: String) throws -> [String] {
        _ = c.log.take()
        try m.send(event)
        return c.log.take()
    }

    func testPrefixTokensMatchLongerNamesInDocumentOrder() throws {
        let m = try machine()
        XCTAssertEqual(try handled(m, "error.send.failed"), ["take error.send"])
        XCTAssertEqual(try handled(m, "error.send"), ["take error.send"])
        XCTAssertEqual(try handled(m, "error.execution"), ["take error"])
        XCTAssertEqual(try handled(m, "error"), ["take error"])
    }

    func testPrefixMatchesWholeTokensOnly() throws {
        let m = try machine()
        XCTAssertEqual(try handled(m, "errors"), ["take any"])
        XCTAssertEqual(try handled(m, "error2.x"), ["take any"])
    }

    func testListsWildcardSuffixAndStar() throws {
        let m = try machine()
        XCTAssertEqual(try handled(m, "a"), ["take a-or-b"])
        XCTAssertEqual(try handled(m, "b"), ["take a-or-b"])
        XCTAssertEqual(try handled(m, "net.down"), ["take net"])
        XCTAssertEqual(try handled(m, "never.heard.of"), ["take any"])
    }

    func testActionsSeeTheFullEventNameAndPayload() throws {
        let seen = Log()
        let m = try c.start([StateDefinition("s", transitions: [
            TransitionDefinition(on: ["error"], actions: [{ ctx in
                seen.add("\(ctx.event?.name ?? "-") \(ctx.event?.payload(as: String.self) ?? "-")")
            }]),
        ])])
        try m.send("error.send.failed", payload: "timeout")
        try m.send("error")
        XCTAssertEqual(seen.take(), ["error.send.failed timeout", "error -"])
    }

    func testStarDoesNotMatchAbsenceOfEvent() throws {
        let m = try c.start([c.state("s", on: [c.on("*", to: ["t"], "star")]), c.state("t")])
        XCTAssertEqual(m.configuration, ["s"])     // no eventless transition was taken at start
    }

    func testInvalidDescriptorIsRejected() {
        XCTAssertThrowsError(try CompiledChart(ChartDefinition(states: [
            StateDefinition("s", transitions: [TransitionDefinition(on: ["a*b"])]),
        ]))) { error in
            XCTAssertEqual((error as? ChartCompilationError)?.errors.map(\.code), [.invalidDescriptor])
            XCTAssertEqual("\(error)", "chart/s transition #1 (on 'a*b'): error: 'a*b' is not an event descriptor; use a dot-separated name, 'name.*' or '*'")
        }
    }
}
