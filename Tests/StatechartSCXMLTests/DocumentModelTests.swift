import XCTest
@testable import StatechartSCXML

/// The parsed model of a representative document, checked element by element.
final class DocumentModelTests: XCTestCase {
    static let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:my="urn:example"
               version="1.0" name="Machine" initial="idle" datamodel="ecmascript" binding="late">
          <datamodel>
            <data id="count" expr="0"/>
            <data id="config" src="config.json"/>
            <data id="books"><book title="SCXML &amp; you"/></data>
            <data id="greeting">  hello <![CDATA[<world>]]> </data>
            <data id="empty"/>
          </datamodel>
          <script>var started = true;</script>
          <state id="idle">
            <onentry>
              <log label="enter" expr="count"/>
              <raise event="ready"/>
            </onentry>
            <onexit><assign location="count" expr="count + 1"/></onexit>
            <onexit><assign location="books"><book title="x"/></assign></onexit>
            <transition event="go  go.now" cond="count &lt; 3" target="work" type="internal">
              <if cond="count == 0">
                <log expr="'zero'"/>
              <elseif cond="count == 1"/>
                <log expr="'one'"/><raise event="one"/>
              <else/>
                <foreach array="[1, 2]" item="v" index="i"><log expr="v"/></foreach>
              </if>
              <send event="tick" target="#_internal" type="http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
                    id="t1" namelist="count books">
              </send>
              <send eventexpr="'late'" targetexpr="parent" typeexpr="kind" idlocation="where" delayexpr="d"/>
              <send event="later" delay="1.5s"><param name="a" expr="1"/><param name="b" location="count"/></send>
              <send event="data"><content expr="count"/></send>
              <cancel sendid="t1"/><cancel sendidexpr="'t' + 1"/>
              <script src="helper.js"/>
            </transition>
          </state>
          <state id="work" initial="work.a">
            <state id="work.a"/><state id="work.b"/>
            <history id="hist" type="deep"><transition target="work.b"><log/></transition></history>
            <transition event="done.state.work" target="end"/>
          </state>
          <parallel id="both">
            <state><initial><transition target="x1"/></initial><state id="x1"/></state>
            <history type="deep"><transition target="x1"/></history>
            <invoke type="scxml" id="child" namelist="count" autoforward="true">
              <content>
                <scxml version="1.0" initial="c1"><state id="c1"/></scxml>
              </content>
              <finalize><assign location="count" expr="_event.data"/></finalize>
            </invoke>
            <invoke typeexpr="kind" srcexpr="'x.scxml'" idlocation="loc"><param name="p" expr="2"/></invoke>
          </parallel>
          <final id="end">
            <donedata><content>done <my:detail/></content></donedata>
          </final>
          <final id="äöü"><donedata><param name="n" expr="1"/></donedata></final>
        </scxml>
        """

    var document: SCXMLDocument!

    override func setUpWithError() throws {
        document = try SCXMLParser.parse(string: Self.text, fileName: "test.scxml")
    }

    func testRootAttributes() {
        XCTAssertEqual(document.sourceLocation, at(2, 1))
        XCTAssertEqual(document.name, "Machine")
        XCTAssertEqual(document.version, "1.0")
        XCTAssertEqual(document.initial, ["idle"])
        XCTAssertEqual(document.datamodel, "ecmascript")
        XCTAssertEqual(document.binding, .late)
        XCTAssertEqual(document.script, SCXMLScript(sourceLocation: at(11, 3), source: .inline("var started = true;")))
        XCTAssertEqual(document.states.map(\.id), ["idle", "work", "both", "end", "äöü"])
        XCTAssertEqual(document.states.map(\.kind), [.state, .state, .parallel, .final, .final])
    }

    func testDatamodel() throws {
        let datamodel = try XCTUnwrap(document.datamodelElement)
        XCTAssertEqual(datamodel.sourceLocation, at(4, 3))
        XCTAssertEqual(
            datamodel.data,
            [
                SCXMLData(sourceLocation: at(5, 5), id: "count", value: .expression("0")),
                SCXMLData(sourceLocation: at(6, 5), id: "config", value: .src("config.json")),
                SCXMLData(
                    sourceLocation: at(7, 5), id: "books",
                    value: .inline(
                        .markup(
                            #"<book xmlns="http://www.w3.org/2005/07/scxml" xmlns:my="urn:example" "#
                                + #"title="SCXML &amp; you"/>"#))),
                SCXMLData(sourceLocation: at(8, 5), id: "greeting", value: .inline(.text("  hello <world> "))),
                SCXMLData(sourceLocation: at(9, 5), id: "empty", value: nil),
            ])
    }

    func testStateWithHandlersAndTransition() throws {
        let idle = document.states[0]
        XCTAssertEqual(idle.sourceLocation, at(12, 3))
        XCTAssertFalse(idle.isGeneratedID)
        XCTAssertTrue(idle.isAtomic)
        XCTAssertEqual(
            idle.onEntry,
            [
                SCXMLExecutableBlock(
                    sourceLocation: at(13, 5),
                    actions: [
                        .log(SCXMLLog(sourceLocation: at(14, 7), label: "enter", expr: "count")),
                        .raise(SCXMLRaise(sourceLocation: at(15, 7), event: "ready")),
                    ])
            ])
        XCTAssertEqual(
            idle.onExit,
            [
                SCXMLExecutableBlock(
                    sourceLocation: at(17, 5),
                    actions: [
                        .assign(SCXMLAssign(sourceLocation: at(17, 13), location: "count", value: .expression("count + 1")))
                    ]),
                SCXMLExecutableBlock(
                    sourceLocation: at(18, 5),
                    actions: [
                        .assign(
                            SCXMLAssign(
                                sourceLocation: at(18, 13), location: "books",
                                value: .inline(
                                    .markup(
                                        #"<book xmlns="http://www.w3.org/2005/07/scxml" xmlns:my="urn:example" "#
                                            + #"title="x"/>"#))))
                    ]),
            ])
        let transition = try XCTUnwrap(idle.transitions.first)
        XCTAssertEqual(idle.transitions.count, 1)
        XCTAssertEqual(transition.sourceLocation, at(19, 5))
        XCTAssertEqual(transition.events, ["go", "go.now"])
        XCTAssertEqual(transition.cond, "count < 3")
        XCTAssertEqual(transition.targets, ["work"])
        XCTAssertEqual(transition.type, .internal)
        XCTAssertEqual(transition.actions.map(\.elementName), ["if", "send", "send", "send", "send", "cancel", "cancel", "script"])
        XCTAssertEqual(
            transition.actions.map(\.sourceLocation),
            [at(20, 7), at(27, 7), at(30, 7), at(31, 7), at(32, 7), at(33, 7), at(33, 28), at(34, 7)])
    }

    func testIfBranches() throws {
        guard case .if(let node)? = document.states[0].transitions.first?.actions.first else {
            return XCTFail("expected <if>")
        }
        XCTAssertEqual(
            node,
            SCXMLIf(
                sourceLocation: at(20, 7),
                branches: [
                    SCXMLIf.Branch(
                        sourceLocation: at(20, 7), cond: "count == 0",
                        actions: [.log(SCXMLLog(sourceLocation: at(21, 9), expr: "'zero'"))]),
                    SCXMLIf.Branch(
                        sourceLocation: at(22, 7), cond: "count == 1",
                        actions: [
                            .log(SCXMLLog(sourceLocation: at(23, 9), expr: "'one'")),
                            .raise(SCXMLRaise(sourceLocation: at(23, 28), event: "one")),
                        ]),
                    SCXMLIf.Branch(
                        sourceLocation: at(24, 7), cond: nil,
                        actions: [
                            .foreach(
                                SCXMLForeach(
                                    sourceLocation: at(25, 9), array: "[1, 2]", item: "v", index: "i",
                                    actions: [.log(SCXMLLog(sourceLocation: at(25, 52), expr: "v"))]))
                        ]),
                ]))
    }

    func testSendAndCancel() throws {
        let actions = try XCTUnwrap(document.states[0].transitions.first?.actions)
        XCTAssertEqual(
            actions[1],
            .send(
                SCXMLSend(
                    sourceLocation: at(27, 7), event: .literal("tick"), target: .literal("#_internal"),
                    type: .literal("http://www.w3.org/TR/scxml/#SCXMLEventProcessor"), id: .literal("t1"),
                    namelist: ["count", "books"])))
        XCTAssertEqual(
            actions[2],
            .send(
                SCXMLSend(
                    sourceLocation: at(30, 7), event: .expression("'late'"), target: .expression("parent"),
                    type: .expression("kind"), id: .location("where"), delay: .expression("d"))))
        XCTAssertEqual(
            actions[3],
            .send(
                SCXMLSend(
                    sourceLocation: at(31, 7), event: .literal("later"), delay: .literal("1.5s"),
                    params: [
                        SCXMLParam(sourceLocation: at(31, 40), name: "a", value: .expression("1")),
                        SCXMLParam(sourceLocation: at(31, 66), name: "b", value: .location("count")),
                    ])))
        XCTAssertEqual(
            actions[4],
            .send(
                SCXMLSend(
                    sourceLocation: at(32, 7), event: .literal("data"),
                    content: SCXMLContent(sourceLocation: at(32, 26), value: .expression("count")))))
        XCTAssertEqual(actions[5], .cancel(SCXMLCancel(sourceLocation: at(33, 7), sendID: .literal("t1"))))
        XCTAssertEqual(actions[6], .cancel(SCXMLCancel(sourceLocation: at(33, 28), sendID: .expression("'t' + 1"))))
        XCTAssertEqual(actions[7], .script(SCXMLScript(sourceLocation: at(34, 7), source: .src("helper.js"))))
    }

    func testCompoundStateAndHistory() throws {
        let work = document.states[1]
        XCTAssertEqual(work.sourceLocation, at(37, 3))
        XCTAssertTrue(work.isCompound)
        XCTAssertEqual(work.initial, ["work.a"])
        XCTAssertNil(work.initialElement)
        XCTAssertEqual(work.children.map(\.id), ["work.a", "work.b", "hist"])
        XCTAssertEqual(work.children.map(\.sourceLocation), [at(38, 5), at(38, 25), at(39, 5)])
        XCTAssertEqual(work.childStates.map(\.id), ["work.a", "work.b"])
        let history = work.children[2]
        XCTAssertEqual(history.kind, .history)
        XCTAssertEqual(history.historyType, .deep)
        XCTAssertEqual(
            history.transitions,
            [
                SCXMLTransition(
                    sourceLocation: at(39, 36), targets: ["work.b"],
                    actions: [.log(SCXMLLog(sourceLocation: at(39, 64)))])
            ])
        XCTAssertEqual(work.transitions.map(\.events), [["done.state.work"]])
    }

    func testParallelWithGeneratedIDsAndInvokes() throws {
        let both = document.states[2]
        XCTAssertEqual(both.sourceLocation, at(42, 3))
        // Document order: idle 1, work 2, work.a 3, work.b 4, hist 5, both 6, anonymous state 7, x1 8, history 9.
        XCTAssertEqual(both.children.map(\.id), ["__state7", "__history9"])
        XCTAssertEqual(both.children.map(\.isGeneratedID), [true, true])
        XCTAssertEqual(both.children[1].historyType, .deep)
        let anonymous = both.children[0]
        XCTAssertEqual(anonymous.sourceLocation, at(43, 5))
        XCTAssertEqual(
            anonymous.initialElement,
            SCXMLInitial(
                sourceLocation: at(43, 12), transition: SCXMLTransition(sourceLocation: at(43, 21), targets: ["x1"])))
        XCTAssertEqual(anonymous.children.map(\.sourceLocation), [at(43, 56)])
        XCTAssertEqual(document.state(withID: "__state7")?.children.first?.id, "x1")

        XCTAssertEqual(both.invokes.count, 2)
        let first = both.invokes[0]
        XCTAssertEqual(first.sourceLocation, at(45, 5))
        XCTAssertEqual(first.type, .literal("scxml"))
        XCTAssertEqual(first.id, .literal("child"))
        XCTAssertEqual(first.namelist, ["count"])
        XCTAssertTrue(first.autoforward)
        XCTAssertNil(first.src)
        XCTAssertEqual(first.content?.sourceLocation, at(46, 7))
        guard case .inline(.document(let nested, let markup))? = first.content?.value else {
            return XCTFail("expected a nested document")
        }
        XCTAssertEqual(nested.sourceLocation, at(47, 9))
        XCTAssertEqual(nested.initial, ["c1"])
        XCTAssertEqual(nested.states.map(\.id), ["c1"])
        XCTAssertEqual(nested.states.first?.sourceLocation, at(47, 43))
        XCTAssertEqual(
            markup,
            "\n        "
                + #"<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:my="urn:example" version="1.0" "#
                + #"initial="c1"><state id="c1"/></scxml>"# + "\n      ")
        XCTAssertEqual(
            first.finalize,
            SCXMLExecutableBlock(
                sourceLocation: at(49, 7),
                actions: [
                    .assign(SCXMLAssign(sourceLocation: at(49, 17), location: "count", value: .expression("_event.data")))
                ]))

        let second = both.invokes[1]
        XCTAssertEqual(
            second,
            SCXMLInvoke(
                sourceLocation: at(51, 5), type: .expression("kind"), src: .expression("'x.scxml'"),
                id: .location("loc"), params: [SCXMLParam(sourceLocation: at(51, 66), name: "p", value: .expression("2"))]))
    }

    func testFinalStatesAndDonedata() {
        let end = document.states[3]
        XCTAssertEqual(end.sourceLocation, at(53, 3))
        XCTAssertTrue(end.isAtomic)
        XCTAssertEqual(
            end.doneData,
            SCXMLDoneData(
                sourceLocation: at(54, 5),
                content: SCXMLContent(
                    sourceLocation: at(54, 15), value: .inline(.markup(#"done <my:detail xmlns="http://www.w3.org/2005/07/scxml" xmlns:my="urn:example"/>"#)))))
        // Columns count characters, not bytes: "äöü" is three columns.
        let umlauts = document.states[4]
        XCTAssertEqual(umlauts.sourceLocation, at(56, 3))
        XCTAssertEqual(
            umlauts.doneData,
            SCXMLDoneData(
                sourceLocation: at(56, 19),
                params: [SCXMLParam(sourceLocation: at(56, 29), name: "n", value: .expression("1"))]))
    }

    func testAllStatesInDocumentOrder() {
        XCTAssertEqual(
            document.allStates.map(\.id),
            ["idle", "work", "work.a", "work.b", "hist", "both", "__state7", "x1", "__history9", "end", "äöü"])
    }
}

/// Inline XML content is written back with the escaping of the package's one XML writer
/// (`XMLOutputElement`): markup characters in attribute values and a carriage return given as a
/// character reference survive another parse.
final class InlineMarkupEscapingTests: XCTestCase {
    func testMarkupCharactersAndACarriageReturnAreEscaped() throws {
        let document = try parse("""
            \(scxmlRoot)><datamodel><data id="d"><x a="1 &gt; 0 &amp; &quot;q&quot;">a&lt;b&#13;</x></data></datamodel>
            <final id="f"/></scxml>
            """)
        XCTAssertEqual(
            document.datamodelElement?.data.first?.value,
            .inline(.markup(#"<x xmlns="http://www.w3.org/2005/07/scxml" a="1 &gt; 0 &amp; &quot;q&quot;">a&lt;b&#13;</x>"#)))
    }
}
