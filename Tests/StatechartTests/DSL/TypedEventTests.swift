import Statechart
import XCTest

/// Typed events: payloads through associated values, string-named events with SCXML
/// descriptors, dotted names with prefix matching, events the chart does not mention.
final class TypedEventTests: XCTestCase {
    func testEventsWithPayloadsMatchByNameAndReachActions() throws {
        let seen = Log()
        let m = try StateMachine<S, Media>(clock: TestClock()) {
            StateNode(.stopped) {
                On(.load, to: .playing) { ctx in
                    if case .load(let url, let autoplay)? = ctx.event { seen.add("load \(url) \(autoplay)") }
                }
            }
            StateNode(.playing) {
                On(.seek) { ctx in
                    if case .seek(let position)? = ctx.event { seen.add("seek \(position)") }
                }
                On(.stop, to: .stopped)
            }
        }
        try m.start()
        XCTAssertEqual(try m.send(.seek(to: 1)), .unhandled)
        XCTAssertEqual(try m.send(.load(url: "a.mp3", autoplay: true)), .handled)
        XCTAssertEqual(try m.send(.seek(to: 42.5)), .handled)
        XCTAssertEqual(try m.send(.seek(to: 7)), .handled)
        XCTAssertEqual(seen.take(), ["load a.mp3 true", "seek 42.5", "seek 7.0"])
        XCTAssertEqual(m.configuration, [.playing])
    }

    func testPayloadEventsRaisedAndSentFromActionsKeepTheirPayload() throws {
        let seen = Log()
        let m = try StateMachine<S, Media>(clock: TestClock()) {
            StateNode(.stopped) {
                On(.play, to: .playing) { ctx in
                    ctx.raise(.seek(to: 1))
                    ctx.send(.seek(to: 2))
                }
            }
            StateNode(.playing) {
                On(.seek) { ctx in
                    if case .seek(let position)? = ctx.event { seen.add("seek \(position)") }
                }
            }
        }
        try m.start()
        let result = try m.transition(on: .play)
        XCTAssertEqual(seen.take(), ["seek 1.0", "seek 2.0"])
        XCTAssertEqual(result.transitions.map(\.event), [.play, .seek(to: 1), .seek(to: 2)])
    }

    func testUntypedViewSeesTheNameAndTheTypedEventAsPayload() throws {
        let seen = Log()
        let m = try StateMachine<S, Media>(clock: TestClock()) {
            StateNode(.stopped) {
                On(.seek) { ctx in seen.add("\(ctx.untyped.event?.name ?? "-") \(String(describing: ctx.untyped.event?.payload(as: Media.self)))") }
            }
        }
        try m.start()
        try m.send(.seek(to: 3))
        XCTAssertEqual(seen.take(), ["seek Optional(StatechartTests.Media.seek(to: 3.0))"])
        // An untyped send with the typed value as payload is recognised too.
        try m.machine.send(Event("seek", payload: Media.seek(to: 4)))
        XCTAssertEqual(seen.take(), ["seek Optional(StatechartTests.Media.seek(to: 4.0))"])
    }

    func testStringEventsUseDescriptors() throws {
        let c = TypedCharts<S, String>()
        let m = try StateMachine<S, String>(clock: TestClock()) {
            StateNode(.running) {
                On("error.network", action: c.take("network"))
                On("error", action: c.take("error"))
                On("net.*", action: c.take("net"))
                On("a b", action: c.take("a-or-b"))
                On(descriptor: "*", action: c.take("any"))
            }
        }
        try m.start()
        for event in ["error.network.down", "error.disk", "error", "net.up", "a", "b", "other", "errors"] {
            try m.send(event)
        }
        XCTAssertEqual(c.log.take(), ["take network", "take error", "take error", "take net", "take a-or-b",
                                      "take a-or-b", "take any", "take any"])
    }

    func testStringEventsSeeTheFullNameInActions() throws {
        let seen = Log()
        let m = try StateMachine<S, String>(clock: TestClock()) {
            StateNode(.running) {
                On("error") { ctx in seen.add(ctx.event ?? "nil") }
            }
        }
        try m.start()
        try m.send("error.disk.full")
        try m.send("error")
        XCTAssertEqual(seen.take(), ["error.disk.full", "error"])
    }

    func testDottedEnumNamesUsePrefixMatching() throws {
        enum Failure: ChartEvent, CustomStringConvertible {
            case failure, networkFailure, diskFailure
            var description: String {
                switch self {
                case .failure: "failure"
                case .networkFailure: "failure.network"
                case .diskFailure: "failure.disk"
                }
            }
        }
        let seen = Log()
        let m = try StateMachine<S, Failure>(clock: TestClock()) {
            StateNode(.running) {
                On(.networkFailure) { _ in seen.add("network") }
                On(.failure) { ctx in seen.add("failure from \(ctx.event.map { "\($0)" } ?? "nil")") }
            }
        }
        try m.start()
        try m.send(.diskFailure)        // not mentioned by the chart: matched by its prefix
        try m.send(.networkFailure)
        try m.send(.failure)
        XCTAssertEqual(seen.take(), ["failure from failure.disk", "network", "failure from failure"])
    }

    func testEventsTheChartDoesNotMentionAreUnhandledAndReported() throws {
        let seen = Log()
        let m = try StateMachine<S, E>(clock: TestClock()) {
            StateNode(.idle) { On(.start, to: .running) }
            StateNode(.running)
        }
        m.onUnhandled { seen.add("unhandled \($0)") }
        try m.start()
        XCTAssertEqual(try m.send(.reset), .unhandled)
        XCTAssertEqual(try m.send(.start), .handled)
        XCTAssertEqual(try m.send(.start), .unhandled)
        XCTAssertEqual(seen.take(), ["unhandled reset", "unhandled start"])
    }

    func testLargeEventsWithoutPayloadTakeTheGeneralPath() throws {
        // Nine bytes of payload-free struct: too large for the byte table, still correct.
        struct Big: ChartEvent { var a: Int; var b: UInt8 }
        let seen = Log()
        let m = try StateMachine<S, Big>(clock: TestClock()) {
            StateNode(.a) {
                On(Big(a: 1, b: 2), to: .b) { ctx in seen.add("\(ctx.event?.a ?? -1)") }
            }
            StateNode(.b)
        }
        try m.start()
        XCTAssertEqual(try m.send(Big(a: 1, b: 3)), .unhandled)
        XCTAssertEqual(try m.send(Big(a: 1, b: 2)), .handled)
        XCTAssertEqual(seen.take(), ["1"])
    }
}
