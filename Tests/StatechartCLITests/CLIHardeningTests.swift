import Foundation
import XCTest

/// The CLI under hostile input and a hostile environment (issue 28): a full or closed standard
/// output, out-of-range numbers, unbounded input lines, runaway traces, file names that are not
/// UTF-8. Each is an error with a message and an exit status, never a trap (issue 24: results on
/// standard output, diagnostics on standard error, exit codes in `statechart --help`).
final class CLIHardeningTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `sh -c script` with the tool as `$T` and the test's folder as `$D`, in the
    /// repository folder.
    func sh(_ script: String, input: Data = Data()) throws -> CLI.Result {
        try CLI.run(["-c", "T='\(CLI.executable.path)'; D='\(directory.path)'; \(script)"], bytes: input,
                    executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// `> /dev/full`: the write fails with ENOSPC. Exit status 1 and a message, not a trap.
    func testAFullStandardOutputIsAnError() throws {
        for command in ["\"$T\" export scxml/examples/traffic-light.scxml --format dot > /dev/full",
                        "\"$T\" trace scxml/examples/traffic-light.scxml > /dev/full",
                        "\"$T\" run scxml/examples/traffic-light.scxml --timeout 0 > /dev/full"] {
            let result = try sh(command)
            XCTAssertEqual(result.status, 1, command)
            XCTAssertEqual(result.stderr.split(separator: "\n").last, "error: cannot write to standard output: No space left on device", command)
        }
    }

    /// A closed standard output (EBADF), and one whose reader has gone (EPIPE: the FIFO's
    /// reader opens it and exits without reading, and the output is larger than a pipe holds):
    /// exit status 1 and a message; not SIGPIPE or a trap.
    func testAClosedStandardOutputIsAnError() throws {
        let direct = try sh("\"$T\" export scxml/examples/traffic-light.scxml --format mermaid >&-")
        XCTAssertEqual(direct.status, 1)
        XCTAssertEqual(direct.stderr, "error: cannot write to standard output: Bad file descriptor\n")
        let states = (0..<4000).map { "<state id=\"s\($0)\"/>" }.joined()
        try "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\(states)</scxml>"
            .write(to: directory.appendingPathComponent("wide.scxml"), atomically: true, encoding: .utf8)
        let pipe = try sh("mkfifo \"$D/fifo\" && { (exec 0<\"$D/fifo\") & \"$T\" export \"$D/wide.scxml\" --format dot > \"$D/fifo\"; echo \"status $?\" >&2; }")
        XCTAssertEqual(pipe.stderr, "error: cannot write to standard output: Broken pipe\nstatus 1\n")
    }

    /// `conformance --timeout` takes seconds from 0 to a year; `nan`, `1e18` and `-1` trapped
    /// converting to milliseconds.
    func testConformanceRefusesTimeoutsItCannotConvert() throws {
        for value in ["nan", "1e18", "-1", "inf"] {
            let result = try CLI.run(["conformance", "--timeout", value, directory.path])
            XCTAssertEqual(result.status, 2, value)
            XCTAssertEqual(result.stderr, "Error: --timeout must be a number of seconds from 0 to 31536000 (a year), not '\(value)'\n")
            XCTAssertEqual(result.stdout, "")
        }
        let jobs = try CLI.run(["conformance", "--jobs", "0", directory.path])
        XCTAssertEqual(jobs.status, 2)
        XCTAssertEqual(jobs.stderr, "Error: --jobs must be from 1 to 1024, not 0\n")
    }

    /// `trace < /dev/zero`: a line longer than 1 MiB stops the trace (exit 1) instead of
    /// growing until memory runs out.
    func testTraceStopsAtALineLongerThanTheBound() throws {
        let result = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"],
                                 bytes: Data("ped\n".utf8) + Data(count: (1 << 20) + 1))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, ["{\"event\": null, \"configuration\": [\"red\",\"dontWalk\"]}",
                                      "{\"event\": \"ped\", \"configuration\": [\"red\",\"dontWalk\"]}"])
        XCTAssertEqual(result.stderr, "trace: line 2 is longer than 1048576 bytes; stopped\n")
        // A line of exactly the bound is read.
        let longest = try CLI.run(["trace", "scxml/examples/traffic-light.scxml"],
                                  bytes: Data(repeating: UInt8(ascii: "x"), count: 1 << 20) + Data("\n".utf8))
        XCTAssertEqual(longest.status, 0, longest.stderr)
        XCTAssertEqual(longest.lines.count, 2)
    }

    /// A chart that runs eventless transitions forever: start-up's macrostep and the line's each
    /// run to the step bound (100,000 microsteps, far longer than the timeout in a debug build).
    /// `--timeout` stops each line's work between two microsteps; the configuration line is
    /// printed, the trace goes on, and the exit status is 1.
    func testTraceTimeoutStopsALinesWork() throws {
        let document = directory.appendingPathComponent("loop.scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><onentry><send event="again"/></onentry><transition target="b"/></state>
          <state id="b"><transition target="a"/></state>
        </scxml>
        """.write(to: document, atomically: true, encoding: .utf8)
        let result = try CLI.run(["trace", document.path, "--timeout", "0.02"], input: "x\n")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.lines.count, 2, result.stdout)
        XCTAssertTrue(result.lines.first?.hasPrefix("{\"event\": null, \"configuration\": [") == true, result.stdout)
        XCTAssertTrue(result.lines.last?.hasPrefix("{\"event\": \"x\", \"configuration\": [") == true, result.stdout)
        let timeouts = result.stderr.split(separator: "\n").filter { $0.hasPrefix("trace: the timeout of 0.02 seconds passed while a line's work was running; it was stopped between two microsteps in [") }
        XCTAssertEqual(timeouts.count, 2, result.stderr)     // start-up's work and the line's
        let bad = try CLI.run(["trace", document.path, "--timeout", "nan"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "Error: --timeout must be a number of seconds from 0 to 31536000 (a year), not 'nan'\n")
        let help = try CLI.run(["trace", "--help"])
        let helpText = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(helpText.contains("--timeout <timeout> Seconds one input line's work may run (0 to 31536000; default 10)"), helpText)
    }

    /// A microstep's lists hold at most 10,000 entries: start-up enters a parallel state, its
    /// 5,000 regions and their 5,000 states (10,001), and the line ends with `"omitted": 1`.
    func testVerboseListsAreBounded() throws {
        let regions = (0..<5000).map { "<state id=\"r\($0)\"><state id=\"a\($0)\"/></state>" }.joined()
        let document = directory.appendingPathComponent("wide.scxml")
        try "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"><parallel id=\"p\">\(regions)</parallel></scxml>"
            .write(to: document, atomically: true, encoding: .utf8)
        let result = try CLI.run(["trace", "--verbose", document.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 2)
        let line = result.lines.first ?? ""
        let entered = (0..<5000).flatMap { ["r\($0)", "a\($0)"] }
        XCTAssertTrue(line.hasPrefix("{\"microstep\": 1, \"event\": null, \"transitions\": [], \"exited\": [], \"entered\": "
            + "[\"p\",\(entered.prefix(9999).map { "\"\($0)\"" }.joined(separator: ","))], "), String(line.prefix(300)))
        XCTAssertTrue(line.hasSuffix(", \"raised\": [], \"sent\": [], \"errors\": [], \"omitted\": 1}"), String(line.suffix(200)))
    }

    /// A legal document nested 3,000 deep: its SCXML export loads again (indentation stops
    /// growing at 16 levels: two spaces a level made 18 MB, past the 16 MiB load limit), and
    /// every export runs on a stack that fits the nesting (the writers recurse).
    func testADeepDocumentExportsAndTheExportLoadsAgain() throws {
        let depth = 3000
        let opening = (0..<depth).map { "<state id=\"d\($0)\"><transition event=\"go\" target=\"d0\"/>" }.joined()
        let document = directory.appendingPathComponent("deep.scxml")
        try "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"null\">\(opening)\(String(repeating: "</state>", count: depth))</scxml>"
            .write(to: document, atomically: true, encoding: .utf8)
        let exported = directory.appendingPathComponent("exported.scxml")
        let export = try CLI.run(["export", document.path, "--format", "scxml", "-o", exported.path])
        XCTAssertEqual(export.status, 0, export.stderr)
        let size = try FileManager.default.attributesOfItem(atPath: exported.path)[.size] as? Int ?? 0
        XCTAssertLessThan(size, 500_000)     // 3,000 states of three lines, about 160 bytes, 96 of them indent
        let again = try CLI.run(["trace", exported.path], input: "go\n")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.lines, ["{\"event\": null, \"configuration\": [\"d2999\"]}", "{\"event\": \"go\", \"configuration\": [\"d2999\"]}"])
        for format in ["dot", "mermaid"] {
            let result = try CLI.run(["export", document.path, "--format", format])
            XCTAssertEqual(result.status, 0, "\(format): \(result.stderr)")
        }
    }

    /// A file whose name is not UTF-8 (Latin-1 `café`): every command opens it by its bytes,
    /// and names it in messages with U+FFFD for the byte that is not UTF-8.
    func testFileNamesThatAreNotUTF8() throws {
        let copy = try sh("cp scxml/examples/traffic-light.scxml \"$D/$(printf 'caf\\351.scxml')\"")
        XCTAssertEqual(copy.status, 0, copy.stderr)
        let name = "\"$D/$(printf 'caf\\351.scxml')\""
        let validate = try sh("\"$T\" validate \(name)")
        XCTAssertEqual(validate.status, 0, validate.stderr)
        let run = try sh("\"$T\" run \(name) --timeout 0")
        XCTAssertEqual(run.stdout, "{\"finished\": false, \"configuration\": [\"red\",\"dontWalk\"]}\n", run.stderr)
        let export = try sh("\"$T\" export \(name) --format scxml -o \"$D/$(printf 'out\\351.scxml')\" && \"$T\" validate \"$D/$(printf 'out\\351.scxml')\"")
        XCTAssertEqual(export.status, 0, export.stderr)
        let generate = try sh("\"$T\" generate c \(name) -o \"$D/gen\" && ls \"$D/gen\"")
        XCTAssertEqual(Set(generate.stdout.split(separator: "\n")), ["caf_.c", "caf_.h", "caf__config.h"], generate.stderr)
        let missing = try sh("\"$T\" validate \"$D/$(printf 'nul\\351.scxml')\"")
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "\(directory.path)/nul\u{FFFD}.scxml:1:1: error: cannot read the file: \(directory.path)/nul\u{FFFD}.scxml cannot be read: No such file or directory\n")
    }

    /// Issue 24: one message for a document with nothing in it, white space or not; on
    /// standard error, like every diagnostic, with exit status 2.
    func testEmptyAndWhiteSpaceDocumentsGetTheSameMessage() throws {
        for (name, text) in [("empty", ""), ("blank", "  \n\t\r\n")] {
            let file = directory.appendingPathComponent("\(name).scxml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            for command in [["validate"], ["run"], ["trace"], ["export", "--format", "dot"]] {
                let result = try CLI.run(command + [file.path])
                XCTAssertEqual(result.status, 2, "\(command) \(name)")
                XCTAssertEqual(result.stdout, "")
                XCTAssertEqual(result.stderr, "\(file.path):1:1: error: the document is empty; an SCXML document needs an <scxml> root element\n")
            }
        }
    }

    /// Issue 24: `statechart --help` documents the streams and the exit codes of every command.
    func testHelpDocumentsStreamsAndExitCodes() throws {
        let help = try CLI.run(["--help"])
        XCTAssertEqual(help.status, 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(text.contains("Every command writes its results (JSON lines, diagrams, SCXML, test results) on standard output and its diagnostics"), text)
        XCTAssertTrue(text.contains("Exit status, for every command: 0 success; 1 a runtime failure"), text)
        XCTAssertTrue(text.contains("2 invalid input (a document that is not valid, empty or unreadable, a bad option or argument)"), text)
    }
}
