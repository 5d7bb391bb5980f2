import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// Every W3C ECMAScript test chart that uses neither `<invoke>` nor BasicHTTP, snapshotted right
/// after start-up, written as JSON, read back and restored into a second machine loaded from the
/// same file: both are then driven by their own `TestClock`s, advanced to the same deadlines,
/// and must show the same configuration after every step, the same logs, the same pending
/// deadlines, the same end (pass or fail) and the same datamodel values.
final class SCXMLSnapshotW3CRoundTripTests: XCTestCase {
    /// Charts whose datamodel holds, after start-up, a value a snapshot refuses (by design: see
    /// ECMAScriptDatamodel+Snapshot.swift), with the reason; the test fails when one of them
    /// snapshots after all, so the list stays honest.
    static let refused: [String: String] = [
        "test326": "Var2 holds the same object as Var1 (_ioprocessors): identity would be lost",
        "test329": "Var2 is a copy of _event, whose sendid is undefined",
        "test452": "foo is made by new (a prototype of its own)",
        "test453": "var1 is a function",
        "test557": "var1 is a DOM document (XML <data>)",
    ]

    /// A machine of one chart with its own clock and log.
    final class Run: @unchecked Sendable {
        // @unchecked: `logged` is only touched with `lock` held.
        let clock = TestClock()
        let machine: SCXMLMachine
        private let lock = NSLock()
        private var logged: [String] = []

        init(_ url: URL) throws {
            var options = SCXMLMachine.Options.withECMAScript
            options.clock = clock
            machine = try SCXMLMachine(contentsOf: url, options: options)
            machine.onLog { [weak self] label, message in
                guard let self else { return }
                self.lock.withLock { self.logged.append("\(label ?? ""): \(message)") }
            }
        }

        var logs: [String] { lock.withLock { logged } }
    }

    func testEveryChartWithoutInvokeContinuesAlikeAfterRestore() throws {
        let suite = W3CSuite.folder
        let manifest = try Manifest(contentsOf: suite.appendingPathComponent("manifest.tsv"))
        let runner = ConformanceRunner(options: .withECMAScript, manifest: manifest)
        let files = try runner.testFiles(in: suite.appendingPathComponent("ecma"))
            .filter { !manifest.isSkippedManualTest($0.deletingPathExtension().lastPathComponent) }
        var roundTripped: [String] = []
        var refusals: [String: String] = [:]
        var excluded = 0
        var passed = 0
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.contains("<invoke") || text.contains("BasicHTTP") || text.contains("basichttp") {
                excluded += 1
                continue
            }
            let name = url.deletingPathExtension().lastPathComponent
            do {
                if try roundTrip(url, name: name, passed: &passed) { roundTripped.append(name) }
            } catch let error as SCXMLSnapshotError {
                refusals[name] = "\(error)"
            }
        }
        for (name, reason) in refusals where Self.refused[name] == nil {
            XCTFail("\(name): snapshot refused: \(reason)")
        }
        for name in Self.refused.keys where refusals[name] == nil {
            XCTFail("\(name) snapshots now; remove it from `refused`")
        }
        print("W3C snapshot round-trip: \(roundTripped.count) charts continued alike after restore (\(passed) of them to pass), \(refusals.count) refused, \(excluded) excluded (invoke or BasicHTTP)")
        XCTAssertEqual(roundTripped.count + refusals.count + excluded, files.count)
        XCTAssertEqual(roundTripped.count, 143, "every chart without invoke or BasicHTTP, less the refused ones")
    }

    /// Runs one chart twice (original and restored); returns whether it got that far.
    private func roundTrip(_ url: URL, name: String, passed: inout Int) throws -> Bool {
        let original = try Run(url)
        try original.machine.start()
        let json = try JSONEncoder().encode(try original.machine.snapshot())
        let snapshot = try JSONDecoder().decode(SCXMLSnapshot.self, from: json)
        let restored = try Run(url)
        try restored.machine.restore(snapshot)
        let logsBefore = original.logs.count
        XCTAssertEqual(restored.machine.configuration, original.machine.configuration, "\(name): after restore")
        var steps = 0
        while !(original.machine.isFinished && restored.machine.isFinished), steps < 200 {
            steps += 1
            // The same sends wait, with the same time left (sendids generated after the
            // restore name the new session: compared with the original's id in its place).
            XCTAssertEqual(try pending(restored), try pending(original), "\(name): delayed sends, step \(steps)")
            // Clocks keep wake-ups of cancelled sends: advance both to the earlier one.
            guard let next = [original.clock.nextDeadline, restored.clock.nextDeadline].compactMap({ $0 }).min() else { break }
            original.clock.advance(to: next)
            restored.clock.advance(to: next)
            XCTAssertEqual(restored.machine.configuration, original.machine.configuration, "\(name): step \(steps) at \(next)")
        }
        XCTAssertEqual(restored.clock.now, original.clock.now, "\(name): time at the end")
        func pending(_ run: Run) throws -> [String] {
            let own = "send.\(run.machine.sessionID)."
            let originalOwn = "send.\(original.machine.sessionID)."
            return try run.machine.snapshot().machine.delayedEvents.map { delayed in
                let id = delayed.sendID.hasPrefix(own) ? originalOwn + delayed.sendID.dropFirst(own.count) : delayed.sendID
                return "\(id) \(delayed.event.name) \(delayed.remaining)"
            }
        }
        XCTAssertEqual(restored.machine.isFinished, original.machine.isFinished, "\(name): finished")
        XCTAssertEqual(restored.machine.configuration, original.machine.configuration, "\(name): end")
        XCTAssertEqual(restored.logs, Array(original.logs.dropFirst(logsBefore)), "\(name): logs after the snapshot")
        if original.machine.configuration == ["pass"] { passed += 1 }
        XCTAssertEqual(try restored.machine.snapshot().variables, try original.machine.snapshot().variables,
                       "\(name): datamodel values at the end")
        return true
    }
}
