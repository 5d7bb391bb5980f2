import CStateCore
import Statechart
import XCTest

/// The compiler resolves an event or target list once per array and reuses the result for
/// every transition holding the same array (SCXML documents share them): results and errors
/// are those of resolving each transition on its own.
final class SharedListTests: XCTestCase {
    func errors(_ states: [StateDefinition]) -> [String] {
        do {
            _ = try CompiledChart(ChartDefinition(name: "c", states: states))
            return []
        } catch let error as ChartCompilationError {
            return error.errors.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    func testSharedListsResolveLikeSeparateOnes() throws {
        let events = ["a.b", "c"]
        let targets = ["p1", "p2"]
        let shared = [
            StateDefinition("s", transitions: [
                TransitionDefinition(on: events, to: ["t"]), TransitionDefinition(on: events, to: targets),
            ]),
            StateDefinition("t", transitions: [TransitionDefinition(on: events, to: targets)]),
            .parallel("p", children: [StateDefinition("p1"), StateDefinition("p2")]),
        ]
        let separate = [
            StateDefinition("s", transitions: [
                TransitionDefinition(on: ["a.b", "c"], to: ["t"]), TransitionDefinition(on: ["a.b", "c"], to: ["p1", "p2"]),
            ]),
            StateDefinition("t", transitions: [TransitionDefinition(on: ["a.b", "c"], to: ["p1", "p2"])]),
            .parallel("p", children: [StateDefinition("p1"), StateDefinition("p2")]),
        ]
        let first = try CompiledChart(ChartDefinition(name: "c", states: shared))
        let second = try CompiledChart(ChartDefinition(name: "c", states: separate))
        defer { withExtendedLifetime((first, second)) {} }
        let a = first.tables.pointee, b = second.tables.pointee
        XCTAssertEqual(a.transition_count, b.transition_count)
        for i in 0..<Int(a.transition_count) {
            let x = a.transitions[i], y = b.transitions[i]
            XCTAssertEqual(
                [x.source, x.domain, x.targets_offset, x.target_count, x.events_offset, x.event_count],
                [y.source, y.domain, y.targets_offset, y.target_count, y.events_offset, y.event_count])
            for k in 0..<Int(x.target_count) {
                XCTAssertEqual(a.targets[Int(x.targets_offset) + k], b.targets[Int(y.targets_offset) + k])
            }
            for k in 0..<Int(x.event_count) {
                XCTAssertEqual(a.descriptors[Int(x.events_offset) + k], b.descriptors[Int(y.events_offset) + k])
            }
        }
        let machine = Machine(try CompiledChart(ChartDefinition(name: "c", states: shared)))
        try machine.start()
        try machine.send("a.b.x")
        XCTAssertEqual(machine.configuration, ["t"])
        try machine.send("c")
        XCTAssertEqual(Set(machine.configuration), ["p1", "p2"])
    }

    func testEveryTransitionWithABadSharedListIsReported() {
        let badEvents = ["ok", "no*pe"]
        let badTargets = ["nowhere"]
        let conflicting = ["a", "b"]
        XCTAssertEqual(
            errors([
                StateDefinition("a", transitions: [
                    TransitionDefinition(on: badEvents, to: ["b"]), TransitionDefinition(on: badEvents, to: ["b"]),
                    TransitionDefinition(on: ["e"], to: badTargets), TransitionDefinition(on: ["f"], to: badTargets),
                    TransitionDefinition(on: ["g"], to: conflicting), TransitionDefinition(on: ["h"], to: conflicting),
                ]),
                StateDefinition("b"),
            ]),
            [
                "c/a transition #1 (on 'ok no*pe'): error: 'no*pe' is not an event descriptor; use a dot-separated name, 'name.*' or '*'",
                "c/a transition #2 (on 'ok no*pe'): error: 'no*pe' is not an event descriptor; use a dot-separated name, 'name.*' or '*'",
                "c/a transition #3 (on 'e'): error: transition target 'nowhere' does not name a state; known ids include 'a', 'b'",
                "c/a transition #4 (on 'f'): error: transition target 'nowhere' does not name a state; known ids include 'a', 'b'",
                "c/a transition #5 (on 'g'): error: targets 'a' and 'b' cannot be active together; several targets must lie in different regions of a parallel state",
                "c/a transition #6 (on 'h'): error: targets 'a' and 'b' cannot be active together; several targets must lie in different regions of a parallel state",
            ])
    }

    func testMachinesGetTheirOwnChecksAndLayout() throws {
        // sc_machine_create lays a machine out once: the block it allocates is what
        // sc_machine_size reports, and it runs.
        let chart = try CompiledChart(ChartDefinition(name: "c", states: [
            StateDefinition("a", transitions: [TransitionDefinition(on: "go", to: "b")]), StateDefinition("b"),
        ]))
        let size = sc_machine_size(chart.tables, nil)
        // A block of exactly that size takes the machine; one 8-byte word less does not.
        var host = sc_host()
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { block.deallocate() }
        var laidOut: OpaquePointer? = nil
        XCTAssertEqual(sc_machine_init(&laidOut, block, size, chart.tables, &host, nil), SC_OK)
        XCTAssertEqual(UnsafeMutableRawPointer(laidOut), block)
        XCTAssertEqual(sc_machine_init(&laidOut, block, size - 8, chart.tables, &host, nil), SC_ERR_NO_MEMORY)
        XCTAssertNil(laidOut)
        // The internal queue's slots are part of the block: 8 more slots, 8 more events' bytes.
        var eight = sc_options(internal_queue_capacity: 8, external_queue_capacity: 8, max_steps: 0, flags: 0)
        var larger = sc_options(internal_queue_capacity: 16, external_queue_capacity: 8, max_steps: 0, flags: 0)
        XCTAssertEqual(sc_machine_size(chart.tables, &larger),
                       sc_machine_size(chart.tables, &eight) + 8 * MemoryLayout<sc_event>.size)
        let machine = Machine(chart)
        try machine.start()
        try machine.send("go")
        XCTAssertEqual(machine.configuration, ["b"])
    }
}
