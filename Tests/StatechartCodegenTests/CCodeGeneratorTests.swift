import CStateCore
import Foundation
import Statechart
@testable import StatechartCodegen
import XCTest

/// The generated C of small charts, worked out by hand from the compiler's numbering: states in
/// document order (0 is the root), guard ids in transition order, action ids transitions first,
/// then default transitions (the root's start-up content is action 0 for SCXML), then each
/// state's entry and exit.
final class CCodeGeneratorTests: XCTestCase {
    // Line 3 column 5 is <onentry>; line 7 column 5 is <onexit>.
    let tiny = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="tiny">
      <state id="a">
        <onentry><raise event="go"/></onentry>
        <transition event="go" cond="In('a') &amp;&amp; !In('b-2')" target="b-2"/>
      </state>
      <state id="b-2">
        <onexit><log label="bye" expr="'done'"/></onexit>
      </state>
    </scxml>
    """

    func generate(_ text: String, name: String? = nil) throws -> CGeneratedFiles {
        try CCodeGenerator.generate(scxml: Data(text.utf8), fileName: "tiny.scxml", name: name, traceMain: true)
    }

    func testEnumsOfATinyChart() throws {
        let files = try generate(tiny)
        XCTAssertEqual(files.name, "tiny")
        XCTAssertTrue(files.header.contains("""
        enum tiny_state {
            tiny_ROOT = 0, /* the <scxml> root */
            tiny_STATE_a = 1,
            tiny_STATE_b_2 = 2,
            tiny_STATE_COUNT = 3
        };
        """), files.header)
        XCTAssertTrue(files.header.contains("""
        enum tiny_event {
            tiny_EVENT_go = 0, /* go */
            tiny_EVENT_COUNT = 1
        };
        """), files.header)
        XCTAssertTrue(files.header.contains("""
        enum tiny_guard_id {
            tiny_GUARD_a_1 = 0,
            tiny_GUARD_COUNT = 1
        };
        """), files.header)
        XCTAssertTrue(files.header.contains("""
        enum tiny_action_id {
            tiny_ACTION_START = 0,
            tiny_ACTION_a_ENTRY = 1,
            tiny_ACTION_b_2_EXIT = 2,
            tiny_ACTION_COUNT = 3
        };
        """), files.header)
        XCTAssertTrue(files.header.contains("void tiny_log(void *context, const char *label, const char *message);"))
        XCTAssertFalse(files.header.contains("tiny_timer_start"), "no delayed send: no timer hook")
        XCTAssertFalse(files.header.contains("tiny_condition"), "no host function: no condition hook")
    }

    func testContentAndConditionsCompileToC() throws {
        let files = try generate(tiny)
        XCTAssertTrue(files.source.contains("""
            case tiny_GUARD_a_1:
                return (sc_machine_is_active(machine, tiny_STATE_a) && !sc_machine_is_active(machine, tiny_STATE_b_2));
        """), files.source)
        XCTAssertTrue(files.source.contains("""
            case tiny_ACTION_a_ENTRY:
                do { /* <onentry> at tiny.scxml:3:5 */
                    (void)sc_machine_raise(machine, (sc_event){ .id = tiny_EVENT_go });
                } while (0);
                break;
            case tiny_ACTION_b_2_EXIT:
                do { /* <onexit> at tiny.scxml:7:5 */
                    tiny_log(context, "bye", "done");
                } while (0);
                break;
        """), files.source)
    }

    func testTablesAreTheCompiledChartsOwn() throws {
        let files = try generate(tiny)
        // a (1): transition 0 on "go" guarded by guard 0, entry action 1; b-2 (2): exit action 2;
        // the root's default transition (1) targets a; its action 0 (start-up) is empty C, so the
        // tables name it SC_NONE and nothing is called for it.
        XCTAssertTrue(files.source.contains("""
            {.source=1u,.domain=0u,.targets_offset=0u,.target_count=1u,.events_offset=0u,.event_count=1u,.guard=0u,.action=SC_NONE,.flags=0u},
            {.source=0u,.domain=0u,.targets_offset=1u,.target_count=1u,.events_offset=1u,.event_count=0u,.guard=SC_NONE,.action=SC_NONE,.flags=0u},
        """), files.source)
        XCTAssertTrue(files.source.contains(".on_entry=1u,.on_exit=SC_NONE,"), files.source)
        XCTAssertTrue(files.source.contains(".on_entry=SC_NONE,.on_exit=2u,"), files.source)
        XCTAssertTrue(files.source.contains("static const sc_id tiny_targets[] = {\n    2u, 1u,\n};"), files.source)
        XCTAssertTrue(files.source.contains("static const char *const tiny_state_names[] = {\n    \"tiny\",\n    \"a\",\n    \"b-2\",\n};"))
    }

    /// NAME_MACHINE_SIZE is SC_MACHINE_SIZE of the chart's facts, so the target's compiler works
    /// out the bytes for its own pointers and switches (CStateCore's tests check the macro against
    /// sc_machine_size(), the generated-C suite every generated chart): 3 states, 2 atomic, one
    /// active at once, one event, no history or invocation, no parallel state, a guard, and
    /// content, hence the core's default 8 + 8 queue slots.
    func testMachineSizeConstantIsTheCoresSizeMacro() throws {
        let files = try generate(tiny)
        XCTAssertTrue(files.header.contains("#define tiny_MACHINE_SIZE SC_MACHINE_SIZE(3u, 2u, 1u, 1u, 0u, 0u, 0u, 0u, 1u, 8u, 8u)"),
                      files.header)
    }

    /// A document whose generated guards and actions are all empty C queues nothing: its chart
    /// carries SC_CHART_QUIET_CONTENT, so its machines get the core's silent default queues, no
    /// internal slot and one external (the start-up action is there, empty); any content clears
    /// the flag.
    func testChartWithoutContentIsMarkedQuiet() throws {
        let text = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="locked">
          <state id="locked"><transition event="coin" target="unlocked"/></state>
          <state id="unlocked"><transition event="push" target="locked"/></state>
        </scxml>
        """
        let files = try generate(text, name: "gate")
        XCTAssertEqual(files.chartFlags, SC_CHART_QUIET_CONTENT)
        XCTAssertTrue(files.source.contains("    .event_names = gate_event_names,\n    .flags = SC_CHART_QUIET_CONTENT,\n};"), files.source)
        // The silent defaults: no internal slot, one external (the last two facts).
        XCTAssertTrue(files.header.contains("#define gate_MACHINE_SIZE SC_MACHINE_SIZE(3u, 2u, 1u, 2u, 0u, 0u, 0u, 0u, 0u, 0u, 1u)"),
                      files.header)

        let tinyFiles = try generate(tiny)
        XCTAssertEqual(tinyFiles.chartFlags, 0)
        XCTAssertFalse(tinyFiles.source.contains(".flags = SC_CHART"), tinyFiles.source)
    }

    func testNameOptionAndCollisions() throws {
        let text = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a.b"><transition event="x-y x.y" target="a_b"/></state>
          <state id="a_b"/>
          <state id="COUNT"/>
        </scxml>
        """
        let files = try generate(text, name: "m")
        XCTAssertTrue(files.header.contains("""
            m_STATE_a_b = 1,
            m_STATE_a_b_2 = 2,
            m_STATE_COUNT_2 = 3,
            m_STATE_COUNT = 4
        """), files.header)
        // Events by id: "x-y" (0), then "x" (1, the prefix of "x.y") and "x.y" (2).
        XCTAssertTrue(files.header.contains("""
            m_EVENT_x_y = 0, /* x-y */
            m_EVENT_x = 1, /* x */
            m_EVENT_x_y_2 = 2, /* x.y */
        """), files.header)
        XCTAssertThrowsError(try generate(text, name: "2nd")) { error in
            XCTAssertEqual("\(error)", "error: --name: '2nd' is not a C identifier (letters, digits and '_', not starting with a digit)")
        }
    }

    func testContentWithoutACFormIsAnErrorNamingTheElement() throws {
        let text = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a">
            <onentry>
              <send event="e" target="#_scxml_other"/>
              <log expr="status()"/>
              <cancel sendidexpr="current()"/>
            </onentry>
          </state>
        </scxml>
        """
        XCTAssertThrowsError(try generate(text)) { error in
            XCTAssertEqual((error as? CCodegenError)?.messages, [
                "tiny.scxml:4:7: error: <send target=\"#_scxml_other\"> has no C form: generated C sends only to the machine itself (no target, or '#_internal')",
                "tiny.scxml:5:7: error: expr=\"status()\" calls the host function 'status', which generated C cannot call for a <log>; log a literal or an In() condition",
                "tiny.scxml:6:7: error: sendidexpr=\"current()\" has no C form: generated C evaluates only literal expressions here",
            ])
        }
    }

    /// `<script>` (refused by the Swift null datamodel) becomes the NAME_script hook, never dropped:
    /// the top-level one runs with the start-up content, the others where they stand.
    func testInlineScriptsBecomeHookCalls() throws {
        let text = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="s">
          <script>setup();</script>
          <state id="a">
            <onentry><script>motor_on();</script><raise event="go"/></onentry>
          </state>
        </scxml>
        """
        let files = try generate(text, name: "s")
        XCTAssertTrue(files.header.contains("""
        enum s_script_id {
            s_SCRIPT_1 = 0, /* tiny.scxml:2:3: setup(); */
            s_SCRIPT_2 = 1, /* tiny.scxml:4:14: motor_on(); */
            s_SCRIPT_COUNT = 2
        };
        """), files.header)
        XCTAssertTrue(files.source.contains("""
                do { /* <onentry> at tiny.scxml:4:5 */
                    if (s_script(context, machine, s_SCRIPT_2, event) < 0) {
                        (void)sc_machine_raise(machine, (sc_event){ .id = SC_EVENT_UNKNOWN /* error.execution */ });
                        break;
                    }
                    (void)sc_machine_raise(machine, (sc_event){ .id = SC_EVENT_UNKNOWN /* go */ });
                } while (0);
        """), files.source)
        let src = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
          <state id="a"><onentry><script src="motor.js"/></onentry></state>
        </scxml>
        """
        XCTAssertThrowsError(try generate(src)) { error in
            XCTAssertEqual("\(error)", "tiny.scxml:2:26: error: <script src=\"motor.js\"> has no C form: write the code inline, where generated C passes it to the NAME_script hook")
        }
    }

    func testOtherDatamodelsAndInvalidDocumentsAreRefused() throws {
        let ecmascript = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
          <state id="a"/>
        </scxml>
        """
        XCTAssertThrowsError(try generate(ecmascript)) { error in
            XCTAssertEqual("\(error)", "tiny.scxml:1:1: error: datamodel=\"ecmascript\" has no C form: generated C runs the null datamodel (In() conditions, literals, host-function hooks)")
        }
        let invalid = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
          <state id="a"><transition event="e" target="nowhere"/></state>
        </scxml>
        """
        XCTAssertThrowsError(try generate(invalid)) { error in
            XCTAssertTrue("\(error)".hasPrefix("tiny.scxml:2:17: error: transition target 'nowhere' does not name a state"), "\(error)")
        }
    }

    func testSwiftChartWithoutClosures() throws {
        let chart = ChartDefinition(name: "turnstile", states: [
            StateDefinition("locked", transitions: [TransitionDefinition(on: "coin", to: "unlocked")]),
            StateDefinition("unlocked", transitions: [TransitionDefinition(on: "push", to: "locked")]),
        ])
        let files = try CCodeGenerator.generate(chart, name: "turnstile")
        XCTAssertTrue(files.header.contains("""
            turnstile_ROOT = 0, /* the <scxml> root */
            turnstile_STATE_locked = 1,
            turnstile_STATE_unlocked = 2,
        """), files.header)
        XCTAssertTrue(files.header.contains("    turnstile_ACTION_COUNT = 0\n"))
        XCTAssertNil(files.traceMain)
    }

    enum Gate: Hashable, Sendable { case locked, unlocked }
    enum Input: ChartEvent { case coin, push }

    func testTypedChartWithoutClosures() throws {
        let chart = try TypedChart<Gate, Input>(name: "gate") {
            StateNode(.locked) { On(.coin, to: .unlocked) }
            StateNode(.unlocked) { On(.push, to: .locked) }
        }
        let files = try CCodeGenerator.generate(chart, name: "gate", traceMain: true)
        XCTAssertTrue(files.header.contains("""
            gate_STATE_locked = 1,
            gate_STATE_unlocked = 2,
            gate_STATE_COUNT = 3
        """), files.header)
        XCTAssertTrue(files.header.contains("    gate_EVENT_coin = 0, /* coin */\n    gate_EVENT_push = 1, /* push */\n"),
                      files.header)
        XCTAssertNotNil(files.traceMain)
    }

    func testSwiftChartClosuresAreNamed() throws {
        let chart = ChartDefinition(name: "door", states: [
            StateDefinition("shut", transitions: [TransitionDefinition(on: "open", guard: { _ in true }, to: "open")],
                            onEntry: [{ _ in }]),
            StateDefinition("open"),
        ])
        XCTAssertThrowsError(try CCodeGenerator.generate(chart, name: "door")) { error in
            XCTAssertEqual((error as? CCodegenError)?.messages, [
                "door: error: state 'shut' has entry actions, which are Swift closures C cannot run; write them as C in the firmware (hooks), or generate from SCXML",
                "door: error: transition #1 of state 'shut' has a guard, which are Swift closures C cannot run; write them as C in the firmware (hooks), or generate from SCXML",
            ])
        }
    }

    func testWriteReplacesTheFilesAndLeavesNoTemporaries() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)/out")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let files = try generate(tiny)
        try files.write(to: directory)
        try files.write(to: directory)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(),
                       ["tiny.c", "tiny.h", "tiny_config.h", "tiny_main.c"])
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("tiny.h"), encoding: .utf8), files.header)
    }
}
