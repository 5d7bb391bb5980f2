import Foundation
import XCTest

/// `statechart generate c` under hostile input (issue 28): text from the document's path never
/// leaves a C comment, and chart names that would clash with CStateCore, the C library or the
/// trace main's own names are renamed (from a file name) or refused (`--name`). Each generated
/// set is compiled as firmware compiles it (`cc -std=c11 -Wall -Wextra -Wpedantic -Werror`).
final class GeneratedCHardeningTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("generate-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    static let flags = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]

    /// Runs `command arguments...` (found on PATH); its exit status and what it printed (both streams).
    func shell(_ command: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let result = try CLI.run([command] + arguments, input: input, executable: URL(fileURLWithPath: "/usr/bin/env"))
        return (result.status, result.stdout + result.stderr)
    }

    /// Builds the generated files in `folder` with the core and runs the trace main on `events`.
    func buildAndTrace(_ folder: URL, events: String) throws -> String {
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".c") }
            .map { folder.appendingPathComponent($0).path }
        let core = try FileManager.default.contentsOfDirectory(atPath: CLI.repository.appendingPathComponent("CStateCore").path)
            .filter { $0.hasPrefix("sc_") && $0.hasSuffix(".c") }.map { "CStateCore/\($0)" }
        let binary = folder.appendingPathComponent("trace").path
        let build = try shell("cc", Self.flags + ["-I", "CStateCore/include"] + sources + core + ["-o", binary])
        XCTAssertEqual(build.status, 0, build.output)
        guard build.status == 0 else { return "" }
        let run = try shell(binary, [], input: events)
        return run.output
    }

    /// A folder named `x*` then a folder named as C code: written into a comment unescaped, the
    /// path closed the comment and compiled the code. The header's code, comments removed by the
    /// preprocessor, must not contain it.
    func testTheDocumentsPathCannotInjectCode() throws {
        let nested = directory.appendingPathComponent("x*").appendingPathComponent(" int injected_by_path = 42; ")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let document = nested.appendingPathComponent("chart.scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><onentry><script>hook();</script></onentry></state>
        </scxml>
        """.write(to: document, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let result = try CLI.run(["generate", "c", document.path, "-o", out.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let header = out.appendingPathComponent("chart.h").path
        XCTAssertTrue(try String(contentsOfFile: header, encoding: .utf8).contains("x* / int injected_by_path = 42; /chart.scxml:2:26: hook(); */"))
        let code = try shell("cc", ["-fpreprocessed", "-dD", "-E", "-P", header])
        XCTAssertEqual(code.status, 0, code.output)
        XCTAssertFalse(code.output.contains("injected_by_path"), code.output)
        XCTAssertTrue(code.output.contains("chart_SCRIPT_1 = 0,"), code.output)
    }

    /// Documents named `trace` (the trace main's statics), `SC` (CStateCore's `SC_STATE_HAS_*`
    /// and `SC_EVENT_*` macros, here met by a state `HAS_INVOKE` and an event `UNKNOWN`),
    /// `Sc_core` (its header guard `SC_CORE_H`), `_stdio` (glibc's `_STDIO_H`) and `stdio` (the
    /// header's own name): each compiles with -Werror and traces as `statechart trace` does.
    func testChartNamesThatWouldClashCompile() throws {
        let chart = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="HAS_INVOKE"><transition event="UNKNOWN" target="COUNT"/></state>
          <state id="COUNT"><transition event="options" target="HAS_INVOKE"/></state>
        </scxml>
        """
        let expectedNames = ["trace": "trace", "SC": "chart_SC", "Sc_core": "chart_Sc_core", "_stdio": "chart__stdio",
                             "stdio": "chart_stdio"]
        for (file, name) in expectedNames {
            let document = directory.appendingPathComponent("\(file).scxml")
            try chart.write(to: document, atomically: true, encoding: .utf8)
            let out = directory.appendingPathComponent("out-\(file)")
            let result = try CLI.run(["generate", "c", document.path, "-o", out.path, "--trace-main"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                           ["\(name).c", "\(name).h", "\(name)_config.h", "\(name)_main.c"], file)
            let events = "UNKNOWN\noptions\nUNKNOWN\n"
            let expected = try CLI.run(["trace", document.path], input: events)
            XCTAssertEqual(expected.status, 0, expected.stderr)
            XCTAssertEqual(try buildAndTrace(out, events: events), expected.stdout, file)
        }
    }

    /// The trace main reads input lines as `statechart trace` does: a line longer than
    /// 1,048,576 bytes stops it with the same message and exit status 1.
    func testTheTraceMainBoundsInputLinesAsTraceDoes() throws {
        let out = directory.appendingPathComponent("out")
        let result = try CLI.run(["generate", "c", "scxml/examples/traffic-light.scxml", "-o", out.path, "--trace-main"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try buildAndTrace(out, events: ""), "{\"event\": null, \"configuration\": [\"red\",\"dontWalk\"]}\n")
        let input = Data("ped\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1)
        let swift = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"], bytes: input)
        let c = try CLI.run([], bytes: input, executable: out.appendingPathComponent("trace"))
        XCTAssertEqual(c.status, 1)
        XCTAssertEqual(c.status, swift.status)
        XCTAssertEqual(c.stdout, swift.stdout)
        XCTAssertEqual(c.stderr, "trace: line 2 is longer than 1048576 bytes; stopped\n")
        XCTAssertEqual(c.stderr, swift.stderr)
    }

    /// `--name` is the user's explicit choice: a clashing one is refused with exit status 2.
    func testClashingNamesAreRefused() throws {
        let out = directory.appendingPathComponent("out").path
        let refusals = [
            "SC": "'SC' would clash with CStateCore's own 'sc_' and 'SC_' names",
            "Sc_core": "'Sc_core' would clash with CStateCore's own 'sc_' and 'SC_' names",
            "_stdio": "'_stdio' starts with '_', which C reserves for the compiler and its library",
            "string": "'string.h' would stand for the C library's <string.h> on an include path",
        ]
        for (name, reason) in refusals {
            let result = try CLI.run(["generate", "c", "scxml/examples/traffic-light.scxml", "-o", out, "--name", name])
            XCTAssertEqual(result.status, 2, name)
            XCTAssertEqual(result.stderr, "error: --name: \(reason)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
    }
}
