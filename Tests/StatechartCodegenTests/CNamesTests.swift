@testable import StatechartCodegen
import XCTest

/// C identifiers from ids and event names, and how collisions are resolved.
final class CNamesTests: XCTestCase {
    func testCharactersOutsideIdentifiersBecomeUnderscores() {
        XCTAssertEqual(CNameTable.sanitized("turn.on"), "turn_on")
        XCTAssertEqual(CNameTable.sanitized("door-open"), "door_open")
        XCTAssertEqual(CNameTable.sanitized("état"), "_tat")
        XCTAssertEqual(CNameTable.sanitized(""), "_")
    }

    func testCollisionsGetTheFirstFreeSuffixInOrder() {
        var table = CNameTable()
        table.reserve("m_STATE_COUNT")
        XCTAssertEqual(table.unique("m_STATE_", "a.b"), "m_STATE_a_b")
        XCTAssertEqual(table.unique("m_STATE_", "a_b_2"), "m_STATE_a_b_2")
        // "a-b" sanitizes to "a_b", taken; "a_b_2" is taken by a real id, so it gets _3.
        XCTAssertEqual(table.unique("m_STATE_", "a-b"), "m_STATE_a_b_3")
        XCTAssertEqual(table.unique("m_STATE_", "COUNT"), "m_STATE_COUNT_2")
    }

    func testChartNameFromTheFileName() {
        XCTAssertEqual(CNameTable.chartName(fromFile: "scxml/examples/traffic-light.scxml"), "traffic_light")
        XCTAssertEqual(CNameTable.chartName(fromFile: "1st.scxml"), "chart_1st")
        XCTAssertEqual(CNameTable.chartName(fromFile: "/tmp/sc.scxml"), "chart_sc")
        XCTAssertNil(CNameTable.problem(withChartName: "oven"))
        XCTAssertEqual(CNameTable.problem(withChartName: "my-oven"),
                       "'my-oven' is not a C identifier (letters, digits and '_', not starting with a digit)")
        XCTAssertEqual(CNameTable.problem(withChartName: "sc_x"), "'sc_x' would clash with CStateCore's own 'sc_' and 'SC_' names")
        // Issue 28: every case of `sc`, C's reserved `_` names and the standard headers' names.
        XCTAssertEqual(CNameTable.problem(withChartName: "SC"), "'SC' would clash with CStateCore's own 'sc_' and 'SC_' names")
        XCTAssertEqual(CNameTable.problem(withChartName: "Sc_core"), "'Sc_core' would clash with CStateCore's own 'sc_' and 'SC_' names")
        XCTAssertEqual(CNameTable.problem(withChartName: "_stdio"), "'_stdio' starts with '_', which C reserves for the compiler and its library")
        XCTAssertEqual(CNameTable.problem(withChartName: "stdint"), "'stdint.h' would stand for the C library's <stdint.h> on an include path")
        XCTAssertNil(CNameTable.problem(withChartName: "trace"))
        XCTAssertNil(CNameTable.problem(withChartName: "scx"))
        XCTAssertEqual(CNameTable.chartName(fromFile: "dir/SC.scxml"), "chart_SC")
        XCTAssertEqual(CNameTable.chartName(fromFile: "_stdio.scxml"), "chart__stdio")
        XCTAssertEqual(CNameTable.chartName(fromFile: "time.scxml"), "chart_time")
    }

    func testStringLiteralsAndComments() {
        XCTAssertEqual(CText.literal("a\"b\\c?\n"), "\"a\\\"b\\\\c\\?\\012\"")
        XCTAssertEqual(CText.literal("é1"), "\"\\303\\2511\"")
        XCTAssertEqual(CText.comment("a */ b"), "a * / b")
        // Issue 28: a path's `x*` + `/` closes no comment; no trigraph, no line splice.
        XCTAssertEqual(CText.comment("/tmp/x*/int evil;/*/a.scxml"), "/tmp/x* /int evil;/ * /a.scxml")
        XCTAssertEqual(CText.comment("a??/b???c\\"), "a? ?/b? ? ?c?")
        XCTAssertEqual(CText.comment("caf\u{E9}\n"), "caf? ?")
    }
}
