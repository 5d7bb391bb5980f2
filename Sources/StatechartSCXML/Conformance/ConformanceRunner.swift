import Foundation

/// Runs W3C SCXML IRP tests (https://www.w3.org/Voice/2013/scxml-irp/): a test passes when its
/// machine reaches the top-level final state `pass`, and fails on `fail`, on a load error or
/// when it has not finished within the timeout.
///
/// ```swift
/// let runner = ConformanceRunner(options: options)
/// let results = runner.run(directory: URL(fileURLWithPath: "Tests/W3C/ecma"))
/// print(results.filter(\.passed).count)
/// ```
///
/// Tests run concurrently (most of their time is spent waiting on delayed events), each on its
/// own thread, at most `jobs` at once. `file:` references resolve against each test's folder.
public struct ConformanceRunner: Sendable {
    /// One test's result.
    public struct Result: Sendable, Hashable {
        /// The file name without extension (`test144`, `test403a`).
        public var test: String
        /// Whether it ended in ``expected``.
        public var passed: Bool
        /// `ended in [...]`, `timed out in [...]`, or the load error.
        public var detail: String
        /// The state the test must end in: `pass`, or `final` for the manual tests without one.
        public var expected: String
    }

    /// How each test document is loaded (datamodels, BasicHTTP, limits).
    public var options: SCXMLMachine.Options
    /// How long one test may run.
    public var timeout: Duration
    /// How many tests run at once.
    public var jobs: Int
    /// Manual tests (from `manifest.tsv`): skipped by ``run(directory:report:)`` except those whose
    /// outcome is a state, which are checked against `final`.
    public var manifest: Manifest

    /// A runner; `jobs` tests run at once, each for at most `timeout`.
    public init(options: SCXMLMachine.Options, timeout: Duration = .seconds(10), jobs: Int = 64,
                manifest: Manifest = Manifest()) {
        self.options = options
        self.timeout = timeout
        self.jobs = max(1, jobs)
        self.manifest = manifest
    }

    /// The tests of a folder: `test*.scxml` except sub-machines (`*sub*.scxml`), sorted by number.
    public func testFiles(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "scxml" && $0.lastPathComponent.hasPrefix("test") && !$0.lastPathComponent.contains("sub") }
            .sorted { Self.sortKey($0.lastPathComponent) < Self.sortKey($1.lastPathComponent) }
    }

    static func sortKey(_ name: String) -> (Int, String) {
        (Int(name.dropFirst(4).prefix { $0.isNumber }) ?? 0, name)
    }

    /// Runs one test file.
    public func run(_ url: URL) -> Result {
        let name = url.deletingPathExtension().lastPathComponent
        let expected = manifest.expectedFinalState(forTest: name)
        do {
            let machine = try SCXMLMachine(contentsOf: url, options: options)
            try machine.start()
            let finished = machine.waitUntilFinished(timeout: timeout)
            let configuration = machine.configuration
            if !finished { machine.machine.stop() }
            return Result(test: name, passed: finished && configuration == [expected],
                          detail: "\(finished ? "ended" : "timed out") in [\(configuration.joined(separator: ", "))]",
                          expected: expected)
        } catch {
            return Result(test: name, passed: false, detail: "\(error)".replacingOccurrences(of: "\n", with: "; "),
                          expected: expected)
        }
    }

    /// Runs `files` concurrently; `report` is called as each finishes (from any thread).
    public func run(_ files: [URL], report: (@Sendable (Result) -> Void)? = nil) -> [Result] {
        let results = Results(count: files.count)
        let slots = DispatchSemaphore(value: jobs)
        let group = DispatchGroup()
        for (index, file) in files.enumerated() {
            slots.wait()
            group.enter()
            let runner = self
            Thread.detachNewThread {
                let result = runner.run(file)
                results.set(index, result)
                report?(result)
                slots.signal()
                group.leave()
            }
        }
        group.wait()
        return results.all
    }

    /// Runs the automatic tests of a folder (manual ones without a final state are skipped).
    public func run(directory: URL, report: (@Sendable (Result) -> Void)? = nil) throws -> [Result] {
        let files = try testFiles(in: directory).filter { !manifest.isSkippedManualTest($0.deletingPathExtension().lastPathComponent) }
        return run(files, report: report)
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result?]
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: Result) { lock.withLock { values[index] = value } }
        var all: [Result] { lock.withLock { values.compactMap { $0 } } }
    }
}

/// What the suite's `manifest.tsv` says about tests: which are manual.
public struct Manifest: Sendable {
    /// Test ids (e.g. `"415"`) marked manual.
    public var manualTests: Set<String> = []

    /// Manual tests whose outcome is the state `final` (the suite's README): checked like the others.
    public static let manualTestsEndingInFinal: Set<String> = ["178", "230", "250", "307", "415"]

    /// A manifest listing `manualTests` (ids such as `"415"`).
    public init(manualTests: Set<String> = []) { self.manualTests = manualTests }

    /// Reads `manifest.tsv` (columns: test_id, conformance, manual, ...).
    public init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            if columns.count > 2 && columns[2] == "yes" { manualTests.insert(String(columns[0])) }
        }
    }

    static func id(_ test: String) -> String { String(test.dropFirst(4).prefix { $0.isNumber }) }

    /// `final` for the manual tests that end there, `pass` for every other test.
    public func expectedFinalState(forTest test: String) -> String {
        let id = Self.id(test)
        return manualTests.contains(id) && Self.manualTestsEndingInFinal.contains(id) ? "final" : "pass"
    }

    /// Manual tests that need a person (their outcome is not a state): 301, 313, 314, 513.
    public func isSkippedManualTest(_ test: String) -> Bool {
        let id = Self.id(test)
        return manualTests.contains(id) && !Self.manualTestsEndingInFinal.contains(id)
    }
}
