import Foundation
import XCTest

/// Hostile or mistaken input to `statechart run`, `validate`, `trace` and `generate c`: timeouts that are not finite
/// numbers, files that are directories, FIFOs or huge, charts that never stop working, and
/// `src` files outside the document's folder (`--allow-dir`).
final class CLIInputTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("charts"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testATimeoutThatIsNotAFiniteNumberOfSecondsIsAUsageError() throws {
        // Before: nan, inf and 1e300 trapped converting to milliseconds (SIGILL).
        for value in ["nan", "inf", "1e300", "-1", "31536001", "soon"] {
            let result = try CLI.run(["run", "scxml/fixtures/never-finishes.scxml", "--timeout", value])
            XCTAssertEqual(result.status, 2, value)
            XCTAssertEqual(result.stdout, "", value)
            XCTAssertEqual(result.stderr, "Error: --timeout must be a number of seconds from 0 to 31536000 (a year), not '\(value)'\n", value)
        }
    }

    func testADirectoryIsNotReadAsADocument() throws {
        // Before: "NSCocoaErrorDomain error 256" (or a permission error as root).
        let result = try CLI.run(["validate", folder.path + "/charts"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.errorLines, ["\(folder.path)/charts:1:1: error: cannot read the file: \(folder.path)/charts is a directory"])
    }

    func testAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        // Before: reading the FIFO blocked until something wrote to it.
        let fifo = folder.appendingPathComponent("events.scxml").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let result = try CLI.run(["run", fifo])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(fifo):1:1: error: cannot read the file: \(fifo) is not a regular file (a FIFO, socket or device)\n")
    }

    func testAHugeFileIsRefusedBeforeItIsRead() throws {
        // A sparse 1 GiB file: before, it was read whole (1 GiB of memory) and then refused.
        let huge = folder.appendingPathComponent("huge.scxml")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let result = try CLI.run(["validate", huge.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.errorLines, ["\(huge.path):1:1: error: the document is 1073741824 bytes, more than the limit of 16777216 bytes (SCXMLParser.Limits.maxDocumentSize)"])
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        XCTAssertLessThan(usage.ru_maxrss, 512 * 1024, "a child used \(usage.ru_maxrss) KiB")   // KiB on Linux
    }

    func testAChartThatSendsToItselfOnEveryEntryStops() throws {
        // Before: start-up never returned, whatever --timeout said.
        let file = try write("charts/self-send.scxml", """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
              <state id="a"><onentry><send event="again"/></onentry><transition event="again" target="a"/></state>
            </scxml>
            """)
        let result = try CLI.run(["run", file, "--timeout", "0.5"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, [#"{"finished": false, "configuration": ["a"]}"#])
        XCTAssertEqual(result.stderr, "\(file): error: the chart kept sending events to itself: one send processed 10000 queued events (MachineOptions.maximumQueuedEventsPerSend) and 1 more were discarded; stopped in [a]\n")
    }

    func testTheTimeoutStopsAMacrostepThatIsStillRunning() throws {
        // Each entry runs a slow script; 100,000 of them (the step bound) take minutes.
        // Before: `run --timeout 1` returned only when the step bound stopped the loop.
        let file = try write("charts/slow-loop.scxml", """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
              <state id="a">
                <onentry><script>for (var i = 0; i &lt; 100000; i++) {}</script></onentry>
                <transition cond="true" target="a"/>
              </state>
            </scxml>
            """)
        let started = Date()
        let result = try CLI.run(["run", file, "--timeout", "1"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, [#"{"finished": false, "configuration": ["a"]}"#])
        XCTAssertEqual(result.stderr, "\(file): error: the timeout of 1 seconds passed while a macrostep was running; it was stopped between two microsteps in [a]\n")
    }

    func testTheTimeoutStopsADelayedEventsMacrostepAndSaysSo() throws {
        // The loop starts in the macrostep of a delayed event, on the clock's thread: its
        // error has no caller, so the tool hears of it as the machine's error observer.
        let file = try write("charts/delayed-loop.scxml", """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
              <state id="a">
                <onentry><send event="go" delay="100ms"/></onentry>
                <transition event="go" target="b"/>
              </state>
              <state id="b">
                <onentry><script>for (var i = 0; i &lt; 100000; i++) {}</script></onentry>
                <transition cond="true" target="b"/>
              </state>
            </scxml>
            """)
        let result = try CLI.run(["run", file, "--timeout", "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, [#"{"finished": false, "configuration": ["b"]}"#])
        XCTAssertEqual(result.stderr, "\(file): error: the timeout of 1 seconds passed while a macrostep was running; it was stopped between two microsteps in [b]\n")
    }

    /// `secret.txt` in the test folder, and `charts/reader.scxml`, which ends in `read` when its
    /// `<data src="../secret.txt">` could be read and in `refused` when it could not.
    private func writeSecretReader() throws -> String {
        _ = try write("secret.txt", "SECRET-CONTENTS")
        let file = try write("charts/reader.scxml", """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
              <datamodel><data id="d" src="../secret.txt"/></datamodel>
              <state id="s">
                <transition cond="d === 'SECRET-CONTENTS'" target="read"/>
                <transition event="error.execution" target="refused"/>
              </state>
              <final id="read"/><final id="refused"/>
            </scxml>
            """)
        return file
    }

    func testSrcFilesStayInsideTheDocumentsFolderUnlessAllowed() throws {
        let file = try writeSecretReader()
        let refused = try CLI.run(["run", file, "--timeout", "5"])
        XCTAssertEqual(refused.status, 0, refused.stderr)
        XCTAssertEqual(refused.lines, [#"{"finished": true, "configuration": ["refused"]}"#])
        let allowed = try CLI.run(["run", file, "--timeout", "5", "--allow-dir", folder.path])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(allowed.lines, [#"{"finished": true, "configuration": ["read"]}"#])
        let missing = try CLI.run(["validate", file, "--allow-dir", folder.path + "/nope"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "Error: --allow-dir '\(folder.path)/nope' is not a folder\n")
    }

    func testValidateLoadsScriptSourcesOnlyFromTheAllowedFolder() throws {
        _ = try write("lib.js", "var x = 1;")
        let file = try write("charts/script.scxml", """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <script src="../lib.js"/>
              <final id="f"/>
            </scxml>
            """)
        let refused = try CLI.run(["validate", file])
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.errorLines, [
            "\(file):2:3: error: <script src=\"../lib.js\"> cannot be loaded, so the document is invalid: cannot load '../lib.js': it is not a file inside the folder documents may read from, \(folder.path)/charts (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)",
        ])
        let allowed = try CLI.run(["validate", file, "--allow-dir", folder.path])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }

    /// `trace` takes `--allow-dir` as `run` and `validate` do (before, only the document's
    /// own folder could be read from, whatever was asked).
    func testTraceReadsSrcFilesOnlyFromTheAllowedFolder() throws {
        let file = try writeSecretReader()
        let refused = try CLI.run(["trace", file])
        XCTAssertEqual(refused.lines, [#"{"event": null, "configuration": ["refused"]}"#])
        let allowed = try CLI.run(["trace", file, "--allow-dir", folder.path])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(allowed.lines, [#"{"event": null, "configuration": ["read"]}"#])
        let missing = try CLI.run(["trace", file, "--allow-dir", folder.path + "/nope"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "Error: --allow-dir '\(folder.path)/nope' is not a folder\n")
    }

    /// `generate c` reads its input through the same bounded reader as the other commands
    /// (before, `Data(contentsOf:)` read a 1 GiB file whole and blocked on a FIFO).
    func testGenerateRefusesHugeFilesFIFOsAndDirectoriesBeforeReading() throws {
        let huge = folder.appendingPathComponent("huge.scxml")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let output = folder.appendingPathComponent("out").path
        let big = try CLI.run(["generate", "c", huge.path, "-o", output])
        XCTAssertEqual(big.status, 2)
        XCTAssertEqual(big.stderr, "\(huge.path):1:1: error: the document is 1073741824 bytes, more than the limit of 16777216 bytes (SCXMLParser.Limits.maxDocumentSize)\n")
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        XCTAssertLessThan(usage.ru_maxrss, 512 * 1024, "a child used \(usage.ru_maxrss) KiB")

        let fifo = folder.appendingPathComponent("chart.scxml").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let pipe = try CLI.run(["generate", "c", fifo, "-o", output])
        XCTAssertEqual(pipe.status, 2)
        XCTAssertEqual(pipe.stderr, "\(fifo):1:1: error: cannot read the file: \(fifo) is not a regular file (a FIFO, socket or device)\n")

        let directory = try CLI.run(["generate", "c", folder.path + "/charts", "-o", output])
        XCTAssertEqual(directory.status, 2)
        XCTAssertEqual(directory.stderr, "\(folder.path)/charts:1:1: error: cannot read the file: \(folder.path)/charts is a directory\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "nothing is written")
    }
}
