import Foundation
import XCTest

/// `statechart export --format scxml` loses nothing the library runs: every chart in `scxml/`
/// and every W3C chart, exported, loads again, exports to the same text, and traces the same;
/// the exported W3C suite passes as the original does. Graphviz accepts every chart's DOT
/// export (the benchmarks' aside).
final class ExportRoundTripTests: XCTestCase {
    let fileManager = FileManager.default

    /// Every `.scxml` file under `folder`, sorted.
    func charts(in folder: URL) throws -> [URL] {
        try fileManager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "scxml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Exports `original` to `exported`, exports that again, and traces both with the events
    /// of `events` (a `.events` file beside the chart, or none). Returns a description of
    /// each difference. A document the tool refuses must be refused the same way by export.
    static func roundTrip(_ original: URL, to exported: URL, traces: Bool, draws: Bool = true) throws -> [String] {
        let name = original.lastPathComponent
        let first = try CLI.run(["export", original.path, "--format", "scxml", "-o", exported.path])
        if first.status != 0 {
            // Refused (W3C's manual tests 301 and others): the loader says so, and so must export.
            let validate = try CLI.run(["validate", original.path])
            return validate.status == 2 && first.status == 2 && first.stderr.contains(validate.stderr.split(separator: "\n")[0])
                ? [] : ["\(name): export failed (\(first.status)): \(first.stderr)"]
        }
        var problems: [String] = []
        let again = try CLI.run(["export", exported.path, "--format", "scxml"])
        let text = try String(contentsOf: exported, encoding: .utf8)
        if again.status != 0 || again.stdout != text {
            problems.append("\(name): exporting the export gives other text (\(again.status)): \(again.stderr)")
        }
        if draws {
            // Graphviz lays out the DOT export without a warning.
            let dot = try CLI.run(["export", original.path, "--format", "dot"])
            let graphviz = try CLI.run(["-Tsvg", "-o", "/dev/null"], input: dot.stdout, executable: URL(fileURLWithPath: "/usr/bin/dot"))
            if dot.status != 0 || graphviz.status != 0 || !graphviz.stderr.isEmpty {
                problems.append("\(name): dot refuses the DOT export (\(graphviz.status)): \(graphviz.stderr)")
            }
        }
        if traces {
            let eventsFile = original.deletingPathExtension().appendingPathExtension("events")
            let events = (try? String(contentsOf: eventsFile, encoding: .utf8)) ?? ""
            let before = try CLI.run(["trace", original.path], input: events)
            let after = try CLI.run(["trace", exported.path], input: events)
            if before.stdout != after.stdout || before.status != after.status {
                problems.append("\(name): trace differs:\n\(before.status) \(before.stdout)\(before.stderr)---\n\(after.status) \(after.stdout)\(after.stderr)")
            }
        }
        return problems
    }

    /// `work` for each job, eight at a time (each job mostly waits for the processes it runs),
    /// the problems of all jobs in job order.
    func problems(_ jobs: [@Sendable () throws -> [String]]) -> [String] {
        final class Results: @unchecked Sendable {
            // @unchecked: every access holds `lock`.
            let lock = NSLock()
            var byJob: [Int: [String]] = [:]
        }
        let results = Results()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 8
        for (number, job) in jobs.enumerated() {
            queue.addOperation {
                let found: [String]
                do { found = try job() } catch { found = ["job \(number): \(error)"] }
                results.lock.withLock { results.byJob[number] = found }
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        return results.byJob.sorted { $0.key < $1.key }.flatMap(\.value)
    }

    func temporaryFolder() throws -> URL {
        let folder = fileManager.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func testTheChartsOfThisRepositoryRoundTrip() throws {
        let folder = try temporaryFolder()
        defer { try? fileManager.removeItem(at: folder) }
        var jobs: [@Sendable () throws -> [String]] = []
        for subfolder in ["examples", "fixtures", "bench"] {
            for chart in try charts(in: CLI.repository.appendingPathComponent("scxml/\(subfolder)"))
            where chart.lastPathComponent != "invalid.scxml" {
                let exported = folder.appendingPathComponent(chart.lastPathComponent)
                // Graphviz takes minutes to lay out the 5,000-state benchmark: not drawn.
                let draws = subfolder != "bench"
                jobs.append { try Self.roundTrip(chart, to: exported, traces: true, draws: draws) }
            }
        }
        XCTAssertEqual(problems(jobs), [])
        XCTAssertEqual(jobs.count, 19)     // 3 examples, 8 fixtures (invalid.scxml left out), 8 benchmarks
    }

    /// The W3C charts (ECMAScript and null, sub-charts included) are exported over a copy of
    /// the suite, so `file:` references find their neighbours. Traces are compared for every
    /// chart whose trace does not race with another thread: a chart that invokes a session or
    /// uses BasicHTTP may see that session's events before or after the end of input. The
    /// exported suites must then pass `conformance` as the originals do, which covers those.
    func testTheW3CChartsRoundTripAndStillPass() throws {
        let folder = try temporaryFolder()
        defer { try? fileManager.removeItem(at: folder) }
        let suite = CLI.repository.appendingPathComponent("Tests/W3C")
        var traced = 0, jobs: [@Sendable () throws -> [String]] = []
        for datamodel in ["ecma", "null"] {
            let copy = folder.appendingPathComponent(datamodel)
            try fileManager.copyItem(at: suite.appendingPathComponent(datamodel), to: copy)
            for chart in try charts(in: suite.appendingPathComponent(datamodel)) {
                let text = try String(contentsOf: chart, encoding: .utf8)
                let racy = text.contains("<invoke") || text.lowercased().contains("basichttp")
                if !racy { traced += 1 }
                let exported = copy.appendingPathComponent(chart.lastPathComponent)
                jobs.append { try Self.roundTrip(chart, to: exported, traces: !racy) }
            }
        }
        XCTAssertEqual(problems(jobs), [])
        XCTAssertEqual(jobs.count, 235)    // 205 ECMAScript charts (200 tests, 5 sub-charts), 30 null
        XCTAssertEqual(traced, 186)   // 49 charts invoke or use BasicHTTP
        let manifest = suite.appendingPathComponent("manifest.tsv").path
        let ecma = try CLI.run(["conformance", folder.appendingPathComponent("ecma").path, "--manifest", manifest])
        XCTAssertEqual(ecma.lines.last, "197 passed, 0 failed", ecma.stdout)
        let null = try CLI.run(["conformance", folder.appendingPathComponent("null").path, "--manifest", manifest])
        XCTAssertEqual(null.lines.last, "30 passed, 0 failed", null.stdout)
    }
}
