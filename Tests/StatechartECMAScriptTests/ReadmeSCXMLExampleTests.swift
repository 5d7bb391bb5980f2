import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// The README's SCXML example ("An SCXML document with the ECMAScript datamodel"), its lines as
/// written there (printing turned into logging), over an `order.scxml` that uses what the
/// comments claim: `_event.data.id === 7`, the host function `now()`, the `tick` handle, and a
/// snapshot restored into a new machine instead of `start()`.
final class ReadmeSCXMLExampleTests: XCTestCase {
    static let order = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
          <datamodel><data id="order" expr="null"/><data id="ticks" expr="0"/></datamodel>
          <state id="waiting">
            <transition event="order.placed" cond="_event.data.id === 7" target="open">
              <assign location="order" expr="_event.data"/>
              <log label="placed" expr="order.id"/>
            </transition>
          </state>
          <state id="open">
            <transition event="tick"><assign location="ticks" expr="ticks + 1"/><log label="clock" expr="now() > 0"/></transition>
          </state>
        </scxml>
        """

    func testTheExampleRunsAsTheReadmeSays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("order.scxml")
        try Self.order.write(to: file, atomically: true, encoding: .utf8)
        let logged = Lines()

        var options = SCXMLMachine.Options.withECMAScript
        options.functions["now"] = { _ in .number(Date().timeIntervalSince1970) }
        options.scriptLimits.timePerEvaluation = .milliseconds(500)
        let machine = try SCXMLMachine(contentsOf: file, options: options)
        machine.onLog { label, message in logged.add("\(label ?? "log") \(message)") }
        try machine.start()
        try machine.send("order.placed", data: .object(["id": .number(7)]))
        XCTAssertEqual(machine.configuration, ["open"], "the guard _event.data.id === 7 held")
        let tick = try machine.event("tick")
        try machine.send(tick)
        XCTAssertEqual(logged.take(), ["placed 7", "clock true"])
        let saved = try JSONEncoder().encode(try machine.snapshot())
        let resumed = try SCXMLMachine(contentsOf: file, options: options)
        try resumed.restore(JSONDecoder().decode(SCXMLSnapshot.self, from: saved))

        XCTAssertEqual(resumed.configuration, ["open"])
        resumed.onLog { label, message in logged.add("\(label ?? "log") \(message)") }
        try resumed.send("tick")
        XCTAssertEqual(logged.take(), ["clock true"])
        let values = Dictionary(uniqueKeysWithValues: try resumed.snapshot().variables.map { ($0.name, $0.value) })
        XCTAssertEqual(values["order"], .object(["id": .number(7)]), "restored from the snapshot")
        XCTAssertEqual(values["ticks"], .number(2), "one tick before the snapshot, one after")
    }
}

/// Lines collected from callbacks.
private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    func take() -> [String] { lock.withLock { defer { lines = [] }; return lines } }
}
