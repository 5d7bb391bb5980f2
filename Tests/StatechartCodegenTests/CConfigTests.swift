import CStateCore
import Foundation
@testable import StatechartCodegen
import XCTest

/// `NAME_config.h`: the core features each chart needs (SC_CONFIG_* switches) and its id width,
/// and `NAME_MACHINE_SIZE` as SC_MACHINE_SIZE of the chart's facts, worked out by hand from the
/// documents in scxml/.
final class CConfigTests: XCTestCase {
    /// The repository's scxml/ folder.
    let scxml = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scxml")

    func generate(_ path: String, name: String) throws -> CGeneratedFiles {
        let url = scxml.appendingPathComponent(path)
        return try CCodeGenerator.generate(scxml: try Data(contentsOf: url), fileName: url.lastPathComponent, name: name)
    }

    /// The switches as written: each `#define NAME VALUE` of the file.
    func switches(_ config: String) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in config.split(separator: "\n") where line.hasPrefix("#define SC_CONFIG_") {
            let words = line.split(separator: " ")
            found[String(words[1])] = Int(words[2])
        }
        return found
    }

    func expected(history: Int, parallel: Int, eventless: Int, guards: Int, content: Int, delayed: Int,
                  invoke: Int = 1, final: Int = 1, queue: Int = 0, idBits: Int = 8, wordBits: Int = 8) -> [String: Int] {
        ["SC_CONFIG_NO_HISTORY": history, "SC_CONFIG_NO_PARALLEL": parallel, "SC_CONFIG_NO_EVENTLESS": eventless,
         "SC_CONFIG_NO_GUARDS": guards, "SC_CONFIG_NO_CONTENT": content, "SC_CONFIG_NO_DELAYED": delayed,
         "SC_CONFIG_NO_INVOKE": invoke, "SC_CONFIG_NO_FINAL": final,
         "SC_CONFIG_NO_QUEUE": queue,
         "SC_CONFIG_NO_PLAN_CACHE": 1, "SC_CONFIG_NO_TABLE_CHECK": 1, "SC_CONFIG_ID_BITS": idBits,
         "SC_CONFIG_WORD_BITS": wordBits]
    }

    /// Two flat states, two transitions, no content: every feature left out.
    func testTurnstileNeedsNoFeature() throws {
        let files = try generate("bench/turnstile.scxml", name: "turnstile")
        XCTAssertEqual(files.files.map(\.name), ["turnstile.h", "turnstile.c", "turnstile_config.h"])
        XCTAssertEqual(switches(files.config),
                       expected(history: 1, parallel: 1, eventless: 1, guards: 1, content: 1, delayed: 1, queue: 1))
        XCTAssertTrue(files.config.contains("""
            /* the chart has no history states */
            #ifndef SC_CONFIG_NO_HISTORY
            #define SC_CONFIG_NO_HISTORY 1
            #endif
            """), files.config)
        // root, locked, unlocked; 2 atomic, 1 active; coin, push; silent: 0 + 1 slots.
        XCTAssertTrue(files.header.contains("#define turnstile_MACHINE_SIZE SC_MACHINE_SIZE(3u, 2u, 1u, 2u, 0u, 0u, 0u, 0u, 0u, 0u, 1u)"),
                      files.header)
        XCTAssertFalse(files.source.contains("#error"), files.source)
    }

    /// Parallel regions guarding each other with In(), a <log> (content); its final state is the
    /// root's child, which halts the machine (so the core keeps final states) and raises no done
    /// event.
    func testTrafficLightNeedsParallelGuardsAndContent() throws {
        let files = try generate("examples/traffic-light.scxml", name: "traffic_light")
        XCTAssertEqual(switches(files.config),
                       expected(history: 1, parallel: 0, eventless: 1, guards: 0, content: 0, delayed: 1, final: 0, wordBits: 16))
        XCTAssertTrue(files.source.contains("""
            #if defined(SC_CONFIG_NO_PARALLEL) && SC_CONFIG_NO_PARALLEL
            #error "traffic_light: the chart has parallel states; build without SC_CONFIG_NO_PARALLEL (see traffic_light_config.h)"
            #endif
            """), files.source)
        XCTAssertTrue(files.source.contains("""
            #if defined(SC_CONFIG_NO_FINAL) && SC_CONFIG_NO_FINAL
            #error "traffic_light: the chart has final states; build without SC_CONFIG_NO_FINAL (see traffic_light_config.h)"
            #endif
            """), files.source)
        XCTAssertFalse(files.source.contains("SC_CONFIG_NO_HISTORY"), files.source)
    }

    /// Eventless transitions and done.state.on (a final state inside "on"), a delayed <send>: the
    /// tables carry SC_CHART_DELAYED_SENDS, which a core built with SC_CONFIG_NO_DELAYED refuses.
    func testMicrowaveNeedsEventlessAndDelayedSends() throws {
        let files = try generate("examples/microwave.scxml", name: "microwave")
        XCTAssertEqual(switches(files.config),
                       expected(history: 1, parallel: 0, eventless: 0, guards: 0, content: 0, delayed: 0, final: 0, wordBits: 16))
        XCTAssertEqual(files.chartFlags, SC_CHART_DELAYED_SENDS)
        XCTAssertTrue(files.source.contains("    .flags = SC_CHART_DELAYED_SENDS,\n};"), files.source)
    }

    /// In() guards alone are no content; a final state inside a compound one raises a done event,
    /// which needs eventless processing and the internal queue.
    func testGuardsAloneAreNoContentAndDoneEventsNeedTheQueue() throws {
        let guarded = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="a"><transition event="e" cond="!In('b')" target="b"/></state>
              <state id="b"/>
            </scxml>
            """
        let plain = try CCodeGenerator.generate(scxml: Data(guarded.utf8), fileName: "guarded.scxml")
        XCTAssertEqual(switches(plain.config),
                       expected(history: 1, parallel: 1, eventless: 1, guards: 0, content: 1, delayed: 1, queue: 1))
        let finishing = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="job"><state id="work"><transition event="e" target="end"/></state><final id="end"/></state>
            </scxml>
            """
        let done = try CCodeGenerator.generate(scxml: Data(finishing.utf8), fileName: "finishing.scxml")
        XCTAssertEqual(switches(done.config),
                       expected(history: 1, parallel: 1, eventless: 0, guards: 1, content: 0, delayed: 1, final: 0))
        XCTAssertTrue(done.config.contains("/* the chart has executable content, host-function conditions or done events */"),
                      done.config)
    }

    /// Parallel, a shallow history, guards, content (the chart footprint.sh measures).
    func testDoorNeedsHistoryParallelGuardsAndContent() throws {
        let files = try generate("fixtures/door.scxml", name: "door")
        XCTAssertEqual(switches(files.config),
                       expected(history: 0, parallel: 0, eventless: 1, guards: 0, content: 0, delayed: 1, wordBits: 16))
        // root, door, panel, resume, closed, opening, opened, closing, lock, unlocked, locked,
        // blackout: 12 states, 7 atomic, 2 active at once (two regions); one history, whose
        // parent "panel" has 5 descendants: one word.
        XCTAssertTrue(files.header.contains("SC_MACHINE_SIZE(12u, 7u, 2u, "), files.header)
        XCTAssertTrue(files.header.contains(", 1u, (SC_BIT_WORDS(5u)), 0u, 1u, 1u, 8u, 8u)"), files.header)
    }

    /// Ids of more than 252 states need 16 bits (the top three values of 8 bits are SC_NONE,
    /// SC_EVENT_ANY and SC_EVENT_UNKNOWN); 252 fit 8.
    func testIdWidthFollowsTheChartsSize() throws {
        func chart(states: Int) -> String {
            let body = (1..<states).map { "<state id=\"s\($0)\"/>" }.joined()
            return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"null\">\(body)</scxml>"
        }
        let small = try CCodeGenerator.generate(scxml: Data(chart(states: 252).utf8), fileName: "small.scxml")
        XCTAssertEqual(switches(small.config)["SC_CONFIG_ID_BITS"], 8)
        let large = try CCodeGenerator.generate(scxml: Data(chart(states: 253).utf8), fileName: "large.scxml")
        XCTAssertEqual(switches(large.config)["SC_CONFIG_ID_BITS"], 16)
        XCTAssertTrue(large.source.contains("#if defined(SC_CONFIG_ID_BITS) && SC_CONFIG_ID_BITS < 16"), large.source)
        // The bit-array word: the narrowest of 8, 16 and 32 bits holding every state (the root
        // counted), else 32.
        for (states, bits) in [(8, 8), (9, 16), (16, 16), (17, 32), (252, 32)] {
            let generated = try CCodeGenerator.generate(scxml: Data(chart(states: states).utf8), fileName: "c.scxml")
            XCTAssertEqual(switches(generated.config)["SC_CONFIG_WORD_BITS"], bits, "\(states) states")
        }
    }
}
