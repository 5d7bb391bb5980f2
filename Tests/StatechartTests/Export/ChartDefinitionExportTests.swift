import Statechart
import XCTest

/// A typed DSL chart drawn and written as SCXML: the text worked out by hand from the rules
/// in `ChartDiagram.dot()`, `.mermaid()` and `ChartDefinition.scxml()`.
final class ChartDefinitionExportTests: XCTestCase {
    func motor() throws -> TypedChart<S, E> {
        try TypedChart<S, E>(name: "motor") {
            StateNode(.idle) { On(.start, to: .running) }
            StateNode(.running, initial: .a) {
                StateNode(.a) {
                    OnEntry { _ in }
                    On(.toggle, to: .b, guard: { _ in true })
                }
                StateNode(.b) { On(.toggle, to: .a) { _ in } }
                History(.h, .deep, default: .a)
                On(.stop, to: .done)
            }
            Final(.done)
        }
    }

    func testDOT() throws {
        XCTAssertEqual(try motor().definition.dot(), """
            digraph "motor" {
              compound=true;
              fontname="Helvetica";
              node [shape=box, style=rounded, fontname="Helvetica"];
              edge [fontname="Helvetica", fontsize=10];
              "#initial" [shape=point, width=0.15];
              "idle";
              subgraph "cluster_running" {
                label="running";
                style=rounded;
                "running#initial" [shape=point, width=0.12];
                "a";
                "b";
                "h" [shape=circle, label="H*"];
              }
              "done" [peripheries=2];
              "#initial" -> "idle";
              "idle" -> "running#initial" [label="start", lhead="cluster_running"];
              "running#initial" -> "a";
              "running#initial" -> "done" [label="stop", ltail="cluster_running"];
              "a" -> "b" [label="toggle [guard]"];
              "b" -> "a" [label="toggle"];
              "h" -> "a" [style=dashed];
            }

            """)
    }

    func testMermaid() throws {
        XCTAssertEqual(try motor().definition.mermaid(), """
            stateDiagram-v2
                [*] --> idle
                idle
                state running {
                    [*] --> a
                    a
                    b
                    state "H*" as h
                    a --> b : toggle [guard]
                    b --> a : toggle
                    h --> a
                }
                done
                done --> [*]
                idle --> running : start
                running --> done : stop

            """)
    }

    /// Closures cannot be written: each is marked by a comment where it was.
    func testSCXML() throws {
        XCTAssertEqual(try motor().definition.scxml(), """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="motor">
              <state id="idle">
                <transition event="start" target="running"/>
              </state>
              <state id="running" initial="a">
                <transition event="stop" target="done"/>
                <state id="a">
                  <!-- 1 entry action: a Swift closure, not exported -->
                  <transition event="toggle" target="b">
                    <!-- guard: a Swift closure, not exported -->
                  </transition>
                </state>
                <state id="b">
                  <transition event="toggle" target="a">
                    <!-- 1 action: a Swift closure, not exported -->
                  </transition>
                </state>
                <history id="h" type="deep">
                  <transition target="a"/>
                </history>
              </state>
              <final id="done"/>
            </scxml>

            """)
    }

    /// An untyped definition with a parallel state whose regions are atomic (drawn dashed),
    /// an `<initial>` transition, an internal transition and text needing escapes.
    func testParallelOfAtomicRegionsAndEscapes() {
        let chart = ChartDefinition(name: "say \"hi\"", states: [
            StateDefinition("top", initialTransition: TransitionDefinition(to: ["both"]), children: [
                .parallel("both", children: [StateDefinition("left"), StateDefinition("right")],
                          transitions: [TransitionDefinition(on: ["a&b"], to: ["both"], type: .internal)]),
            ]),
        ])
        XCTAssertEqual(chart.dot(), """
            digraph "say \\"hi\\"" {
              compound=true;
              fontname="Helvetica";
              node [shape=box, style=rounded, fontname="Helvetica"];
              edge [fontname="Helvetica", fontsize=10];
              "#initial" [shape=point, width=0.15];
              subgraph "cluster_top" {
                label="top";
                style=rounded;
                "top#initial" [shape=point, width=0.12];
                subgraph "cluster_both" {
                  label="both (parallel)";
                  style=rounded;
                  "both#anchor" [shape=point, style=invis, width=0.01];
                  "left" [style="rounded,dashed"];
                  "right" [style="rounded,dashed"];
                }
              }
              "#initial" -> "top#initial" [lhead="cluster_top"];
              "top#initial" -> "both#anchor" [lhead="cluster_both"];
              "both#anchor" -> "both#anchor" [label="a&b"];
            }

            """)
        XCTAssertEqual(chart.scxml(), """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="say &quot;hi&quot;">
              <state id="top">
                <initial>
                  <transition target="both"/>
                </initial>
                <parallel id="both">
                  <transition event="a&amp;b" target="both" type="internal"/>
                  <state id="left"/>
                  <state id="right"/>
                </parallel>
              </state>
            </scxml>

            """)
    }
}
