import Statechart
import StatechartSCXML
import XCTest

/// `SCXMLDocument.scxml()`: executable content, data and escapes written back as the parser
/// reads them; the text worked out by hand from the writer's layout rules.
final class SCXMLExportTests: XCTestCase {
    static let source = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" binding="late">
          <datamodel>
            <data id="x" expr="1"/>
            <data id="doc"><item kind="a"/></data>
            <data id="text">  two  words </data>
          </datamodel>
          <script>var y = x &lt; 2 &amp;&amp; true;</script>
          <state>
            <onexit><cancel sendidexpr="sid"/></onexit>
            <onentry>
              <if cond="x &lt; 2">
                <log label="small" expr="'line1&#10;line2'"/>
              <elseif cond="x == 2"/>
                <raise event="two"/>
              <else/>
                <send eventexpr="'big'" delay="1s" idlocation="sid"><param name="v" expr="x"/></send>
              </if>
              <foreach array="[1, 2]" item="i" index="n"><assign location="x" expr="x + i"/></foreach>
            </onentry>
            <transition event="go" target="f"/>
          </state>
          <final id="f"><donedata><content expr="x"/></donedata></final>
        </scxml>
        """

    func testExecutableContentDataAndEscapes() throws {
        let document = try SCXMLParser.parse(string: Self.source)
        let exported = document.scxml()
        // The state without an id keeps none (its generated id comes back on loading); the
        // <onentry> comes before the <onexit> whatever the source's order.
        XCTAssertEqual(exported, """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" binding="late">
              <datamodel>
                <data id="x" expr="1"/>
                <data id="doc"><item xmlns="http://www.w3.org/2005/07/scxml" kind="a"/></data>
                <data id="text">  two  words </data>
              </datamodel>
              <script>var y = x &lt; 2 &amp;&amp; true;</script>
              <state>
                <onentry>
                  <if cond="x &lt; 2">
                    <log label="small" expr="'line1&#10;line2'"/>
                    <elseif cond="x == 2"/>
                    <raise event="two"/>
                    <else/>
                    <send eventexpr="'big'" idlocation="sid" delay="1s">
                      <param name="v" expr="x"/>
                    </send>
                  </if>
                  <foreach array="[1, 2]" item="i" index="n">
                    <assign location="x" expr="x + i"/>
                  </foreach>
                </onentry>
                <onexit>
                  <cancel sendidexpr="sid"/>
                </onexit>
                <transition event="go" target="f"/>
              </state>
              <final id="f">
                <donedata>
                  <content expr="x"/>
                </donedata>
              </final>
            </scxml>

            """)
        let reread = try SCXMLParser.parse(string: exported)
        XCTAssertEqual(reread.scxml(), exported)
        XCTAssertEqual(reread.allStates.map(\.id), document.allStates.map(\.id))
        XCTAssertEqual(ChartDiagram(reread), ChartDiagram(document))
    }
}
