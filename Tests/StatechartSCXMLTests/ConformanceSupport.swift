import Foundation
import StatechartSCXML

/// Runs W3C IRP tests: a test passes when its machine reaches the top-level final state `pass`.
enum Conformance {
    /// `../shared/w3c-scxml` beside the repository (CI clones it there too).
    static let suite = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/w3c-scxml")

    struct Outcome: Sendable {
        var test: String
        var passed: Bool
        var detail: String
    }

    /// Test ids the manifest marks manual. Of those, 178, 230, 250, 307 and 415 have no `pass`
    /// state: they succeed by halting in `final` (the suite's README), which is what is checked.
    static let manualTests: Set<String> = {
        guard let text = try? String(contentsOf: suite.appendingPathComponent("manifest.tsv"), encoding: .utf8) else { return [] }
        return Set(text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            return columns.count > 2 && columns[2] == "yes" ? String(columns[0]) : nil
        })
    }()

    static func expectedFinalState(_ test: String) -> String {
        let id = String(test.dropFirst(4).prefix { $0.isNumber })
        return manualTests.contains(id) && ["178", "230", "250", "307", "415"].contains(id) ? "final" : "pass"
    }

    static func run(_ url: URL, options: SCXMLMachine.Options = .init(), timeout: Duration = .seconds(5)) -> Outcome {
        let name = url.deletingPathExtension().lastPathComponent
        let expected = expectedFinalState(name)
        do {
            let machine = try SCXMLMachine(contentsOf: url, options: options)
            try machine.start()
            let finished = machine.waitUntilFinished(timeout: timeout)
            let configuration = machine.configuration
            let passed = finished && configuration == [expected]
            return Outcome(test: name, passed: passed,
                           detail: finished ? "ended in \(configuration)" : "timed out in \(configuration)")
        } catch {
            return Outcome(test: name, passed: false, detail: "error: \(error)")
        }
    }

    /// Runs every test concurrently, one thread each (most of the time is spent waiting on delays).
    static func runAll(_ urls: [URL], options: SCXMLMachine.Options = .init()) -> [Outcome] {
        let results = ResultBox(count: urls.count)
        let group = DispatchGroup()
        for (i, url) in urls.enumerated() {
            group.enter()
            Thread.detachNewThread {
                results.set(i, run(url, options: options))
                group.leave()
            }
        }
        group.wait()
        return results.all
    }

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Outcome?]
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: Outcome) { lock.withLock { values[i] = value } }
        var all: [Outcome] { lock.withLock { values.compactMap { $0 } } }
    }
}
