import Foundation
import XCTest

/// `statechart export FILE --format dot|mermaid|scxml`: the text of a small chart with a
/// compound, a parallel, a deep history, final states, a guard and a targetless transition,
/// worked out by hand from the rules in `ChartDiagram.dot()` and `.mermaid()`.
final class ExportCommandTests: XCTestCase {
    static let player = """
        <?xml version="1.0"?>
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="player" initial="idle">
          <state id="idle"><transition event="play" target="active"/></state>
          <parallel id="active">
            <state id="sound" initial="on">
              <state id="on"><transition event="mute" target="off"/></state>
              <state id="off"><transition event="mute" target="on"/></state>
              <history id="h" type="deep"><transition target="off"/></history>
            </state>
            <state id="track">
              <state id="playing">
                <transition event="end" cond="In('on')" target="done"/>
                <transition event="tick"/>
              </state>
              <final id="done"/>
            </state>
            <transition event="done.state.track" target="stopped"/>
          </parallel>
          <final id="stopped"/>
        </scxml>
        """

    var folder: URL!
    var file: String { folder.appendingPathComponent("player.scxml").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.player.write(toFile: file, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testDOT() throws {
        let result = try CLI.run(["export", file, "--format", "dot"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            digraph "player" {
              compound=true;
              fontname="Helvetica";
              node [shape=box, style=rounded, fontname="Helvetica"];
              edge [fontname="Helvetica", fontsize=10];
              "#initial" [shape=point, width=0.15];
              "idle";
              subgraph "cluster_active" {
                label="active (parallel)";
                style=rounded;
                "active#anchor" [shape=point, style=invis, width=0.01];
                subgraph "cluster_sound" {
                  label="sound";
                  style="rounded,dashed";
                  "sound#initial" [shape=point, width=0.12];
                  "on";
                  "off";
                  "h" [shape=circle, label="H*"];
                }
                subgraph "cluster_track" {
                  label="track";
                  style="rounded,dashed";
                  "track#initial" [shape=point, width=0.12];
                  "playing";
                  "done" [peripheries=2];
                }
              }
              "stopped" [peripheries=2];
              "#initial" -> "idle";
              "idle" -> "active#anchor" [label="play", lhead="cluster_active"];
              "active#anchor" -> "stopped" [label="done.state.track", ltail="cluster_active"];
              "sound#initial" -> "on";
              "on" -> "off" [label="mute"];
              "off" -> "on" [label="mute"];
              "h" -> "off" [style=dashed];
              "track#initial" -> "playing";
              "playing" -> "done" [label="end [In('on')]"];
              "playing" -> "playing" [label="tick", style=dotted];
            }

            """)
        try assertDotAccepts(result.stdout)
    }

    func testMermaid() throws {
        let result = try CLI.run(["export", file, "--format", "mermaid"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            stateDiagram-v2
                [*] --> idle
                idle
                state active {
                    state sound {
                        [*] --> on
                        on
                        off
                        state "H*" as h
                        on --> off : mute
                        off --> on : mute
                        h --> off
                    }
                    --
                    state track {
                        [*] --> playing
                        playing
                        done
                        done --> [*]
                        playing --> done : end [In('on')]
                        playing --> playing : tick
                    }
                }
                stopped
                stopped --> [*]
                idle --> active : play
                active --> stopped : done.state.track

            """)
    }

    func testSCXMLIntoAFile() throws {
        let output = folder.appendingPathComponent("out.scxml").path
        let result = try CLI.run(["export", file, "--format", "scxml", "-o", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="player" initial="idle">
              <state id="idle">
                <transition event="play" target="active"/>
              </state>
              <parallel id="active">
                <transition event="done.state.track" target="stopped"/>
                <state id="sound" initial="on">
                  <state id="on">
                    <transition event="mute" target="off"/>
                  </state>
                  <state id="off">
                    <transition event="mute" target="on"/>
                  </state>
                  <history id="h" type="deep">
                    <transition target="off"/>
                  </history>
                </state>
                <state id="track">
                  <state id="playing">
                    <transition event="end" cond="In('on')" target="done"/>
                    <transition event="tick"/>
                  </state>
                  <final id="done"/>
                </state>
              </parallel>
              <final id="stopped"/>
            </scxml>

            """)
    }

    /// Ids Mermaid cannot take as they are (`end`, `my-state`, and `Default`: its keywords are
    /// case-insensitive) get an alias; label characters it would read get entity codes; DOT
    /// escapes quotes and backslashes.
    func testAwkwardIdsAndLabels() throws {
        // The condition is the ECMAScript text  a < "#;:\\"  (a string of '#', ';', ':' and a backslash).
        try #"""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <state id="end"><transition event="go" cond="a &lt; &quot;#;:\\&quot;" target="my-state"/></state>
              <state id="my-state"/>
              <state id="Default"/>
            </scxml>
            """#.write(toFile: file, atomically: true, encoding: .utf8)
        let mermaid = try CLI.run(["export", file, "--format", "mermaid"])
        XCTAssertEqual(mermaid.stdout, ##"""
            stateDiagram-v2
                [*] --> s1
                state "end" as s1
                state "my-state" as s2
                state "Default" as s3
                s1 --> s2 : go [a #lt; #quot;#35;#59;#58;\\#quot;]

            """##, mermaid.stderr)
        let dot = try CLI.run(["export", file, "--format", "dot"])
        XCTAssertTrue(dot.stdout.contains(##""end" -> "my-state" [label="go [a < \"#;:\\\\\"]"];"##), dot.stdout)
        try assertDotAccepts(dot.stdout)
    }

    /// The README's pictures (docs/images/scxml-NAME.svg, drawn by scripts/diagrams.sh) come
    /// from the committed DOT text, which must be the examples' current export.
    func testTheREADMEsPicturesAreTheExamplesExport() throws {
        for example in ["traffic-light", "microwave", "media-player"] {
            let result = try CLI.run(["export", "scxml/examples/\(example).scxml", "--format", "dot"])
            let committed = try String(contentsOf: CLI.repository.appendingPathComponent("docs/images/scxml-\(example).dot"),
                                       encoding: .utf8)
            XCTAssertEqual(result.stdout, committed, "\(example) changed; run scripts/diagrams.sh")
        }
    }

    func testEveryExampleRendersWithGraphviz() throws {
        for example in ["traffic-light", "microwave", "media-player"] {
            let result = try CLI.run(["export", "scxml/examples/\(example).scxml", "--format", "dot"])
            XCTAssertEqual(result.status, 0, result.stderr)
            try assertDotAccepts(result.stdout)
        }
    }

    func testAnInvalidDocumentAndBadArguments() throws {
        let invalid = try CLI.run(["export", "scxml/fixtures/invalid.scxml", "--format", "dot"])
        XCTAssertEqual(invalid.status, 2)
        XCTAssertEqual(invalid.stdout, "")
        XCTAssertTrue(invalid.stderr.hasPrefix("scxml/fixtures/invalid.scxml:"), invalid.stderr)
        XCTAssertTrue(invalid.stderr.contains(": error: "), invalid.stderr)

        let format = try CLI.run(["export", file, "--format", "png"])
        XCTAssertEqual(format.status, 2)
        XCTAssertEqual(format.stderr, "Error: --format must be dot, mermaid or scxml, not 'png'\n")

        let missing = try CLI.run(["export", file])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("Missing expected argument '--format <dot|mermaid|scxml>'"), missing.stderr)

        let unknown = try CLI.run(["export", file, "--format", "dot", "--colour"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("Unknown option '--colour'"), unknown.stderr)
    }

    /// A chart from another tool that loads with a warning (a Qt history without a default
    /// transition): export prints the warning and writes the default the loader gave it (the
    /// parent's initial state), so the SCXML written is strictly valid.
    func testAWarningIsPrintedAndTheExportIsStrict() throws {
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a" initial="a1">
                <history id="h"/>
                <state id="a1"/>
              </state>
            </scxml>
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["export", file, "--format", "scxml"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.hasPrefix("\(file):3:5: warning: "), result.stderr)
        XCTAssertEqual(result.stdout, """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a" initial="a1">
                <history id="h" type="shallow">
                  <transition target="a1"/>
                </history>
                <state id="a1"/>
              </state>
            </scxml>

            """)
        let output = folder.appendingPathComponent("strict.scxml").path
        try result.stdout.write(toFile: output, atomically: true, encoding: .utf8)
        let strict = try CLI.run(["validate", "--strict", output])
        XCTAssertEqual(strict.status, 0, strict.stdout)
        XCTAssertEqual(strict.stdout, "")
    }

    /// Graphviz's `dot` lays the graph out as SVG without a warning or an error.
    func assertDotAccepts(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dot")
        process.arguments = ["-Tsvg"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr, file: file, line: line)
        XCTAssertEqual(stderr, "", file: file, line: line)
        XCTAssertTrue(String(decoding: svg, as: UTF8.self).contains("<svg"), file: file, line: line)
    }
}
