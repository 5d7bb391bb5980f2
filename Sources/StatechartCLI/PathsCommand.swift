import ArgumentParser
import Foundation
import Statechart
import StatechartSCXML

/// `statechart paths FILE [--cover states|transitions] [--to STATE] [--max-length N] [-o DIR]`:
/// test paths generated from the chart (``SCXMLTestPaths``), each an events file for `trace`
/// and the lines `trace` must print for it.
struct PathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Generate event sequences that enter every state or take every transition, with the configurations to expect.",
        discussion: """
            The search runs the real machine from start-up, breadth first, sending every event the \
            chart's transitions name (a 'prefix.*' descriptor as 'prefix'; '*', done.* and error.* left \
            out) in every machine state it finds, as 'trace' runs it (delayed sends never fire: send their \
            events yourself). With the null datamodel the search is exhaustive and what it lists as \
            unreached cannot be reached; with ECMAScript it is bounded by --max-length, and an unreached \
            transition says whether the bound stopped the search before its source was active or its \
            condition never held with the data its event was sent with. Invoked sessions (<invoke>) run \
            as in 'trace' (after each event, in the order things were sent), and the events they send \
            back are taken like any other; the paths cover the chart's own states and transitions.

            Event data: the chart gives examples of its events as elements <test:event name="NAME" \
            data="JSON"/> in the namespace urn:statechart:test (xmlns:test="urn:statechart:test" on \
            <scxml>), anywhere among the elements of <scxml>, a state or a transition. An event with \
            examples is sent once with each example's data (an example without data: without data), \
            instead of once without data; events only the examples name are sent too. Other SCXML \
            processors skip elements in other namespaces, and Qt Creator's editor keeps them when it \
            saves the chart. For example, inside <transition event="order.placed" \
            cond="_event.data.amount &gt; 100" target="review">: <test:event name="order.placed" \
            data='{"amount": 120}'/>. ('statechart coverage' replays configuration-only traces with events \
            without data: for such a chart give it the 'trace --verbose' output of the paths.)

            Output, on standard output: one line per path, 'path-NNN: EVENT EVENT ...' (longest first; \
            an event with data as its events-file line, 'NAME JSON'), \
            then one line per state or transition no path reaches, 'unreached: state 'ID': WHY' or \
            'unreached: transition SOURCE -EVENT [COND]-> TARGETS: WHY', then a summary line. With -o DIR, \
            each path is also written as DIR/path-NNN.events (one event per line: the input of \
            'statechart trace') and DIR/path-NNN.expected (exactly what 'statechart trace FILE < \
            path-NNN.events' prints: the configuration after start-up, then after each event), so \
            'statechart trace FILE < p.events | diff p.expected -' is the test. \
            Exit status: 0 (also when something is unreached), 2 for an invalid document, a <test:event> without a name or with data that is not JSON, an unknown --to state \
            or invalid arguments, 1 if a file cannot be written.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    @Option(help: ArgumentHelp("What the paths must cover.", valueName: "states|transitions"))
    var cover: String = "transitions"

    @Option(help: ArgumentHelp("One shortest path to this state instead.", valueName: "STATE"))
    var to: String?

    @Option(name: .customLong("max-length"), help: "The longest event sequence tried (default 1000; ECMAScript charts: 12).")
    var maximumLength: Int?

    @Option(name: .short, help: ArgumentHelp("Write path-NNN.events and path-NNN.expected into this folder.", valueName: "DIR"))
    var output: String?

    @OptionGroup var access: FileAccessOptions

    @OptionGroup var document: DocumentOptions

    func validate() throws {
        guard TestCoverageGoal(rawValue: cover) != nil else {
            Loading.printError("Error: --cover must be states or transitions, not '\(cover)'")
            throw ExitCode(2)
        }
        if let maximumLength, maximumLength < 0 {
            Loading.printError("Error: --max-length must be 0 or more")
            throw ExitCode(2)
        }
        try access.check()
    }

    func run() throws {
        let (machine, options, baseURL) = try Loading.machineAndOptions(file, access: access, document: document)
        let hasVariables = machine.document.datamodel != nil && machine.document.datamodel != "null"
            || (machine.document.datamodel == nil && options.defaultDatamodel == "ecmascript")
        let length = maximumLength ?? (hasVariables ? 12 : 1_000)
        let plan: TestPlan<SCXMLTestEvent, String>
        do {
            plan = try SCXMLTestPaths.plan(for: machine.document, baseURL: baseURL,
                                           options: options, covering: TestCoverageGoal(rawValue: cover)!, reaching: to,
                                           maximumLength: length, maximumStates: hasVariables ? 20_000 : 1_000_000)
        } catch let error as SCXMLTestPathError {
            if case .invalidExample = error { Loading.printError("\(error)") } else { Loading.printError("error: \(error)") }
            throw ExitCode(2)
        }
        if let output {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                for (number, path) in plan.paths.enumerated() {
                    let base = URL(fileURLWithPath: output).appendingPathComponent(Self.name(number))
                    try Data(Self.eventsText(path).utf8).write(to: base.appendingPathExtension("events"))
                    try Data(Self.expectedText(path).utf8).write(to: base.appendingPathExtension("expected"))
                }
            } catch {
                Loading.printError("error: cannot write into '\(output)': \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        for (number, path) in plan.paths.enumerated() {
            emit("\(Self.name(number)): \(path.steps.map(\.event.line).joined(separator: " "))")
        }
        for item in plan.unreached { emit("unreached: \(item)") }
        let what = to.map { "state '\($0)'" } ?? (cover == "states" ? "every reachable state" : "every reachable transition and state")
        emit("\(plan.paths.count) path\(plan.paths.count == 1 ? "" : "s") to \(what); \(plan.unreached.count) unreached; "
             + (plan.isExhaustive ? "search exhaustive" : "search bounded at \(length) events"))
    }

    static func name(_ number: Int) -> String { "path-" + String(format: "%03d", number + 1) }

    /// One event per line (`NAME` or `NAME JSON`), the input `trace` reads.
    static func eventsText(_ path: TestPath<SCXMLTestEvent, String>) -> String {
        path.steps.map { $0.event.line + "\n" }.joined()
    }

    /// What `trace` prints for the path: the configuration after start-up, then after each event.
    static func expectedText(_ path: TestPath<SCXMLTestEvent, String>) -> String {
        ([TraceCommand.configurationLine(event: nil, configuration: path.start)]
            + path.steps.map { TraceCommand.configurationLine(event: $0.event.name, configuration: $0.expected) })
            .map { $0 + "\n" }.joined()
    }
}

extension TraceCommand {
    /// `{"event": "NAME" or null, "configuration": ["ID", ...]}`: the line `trace` prints
    /// after a macrostep.
    static func configurationLine(event: String?, configuration: [String]) -> String {
        "{\"event\": \(event.map { DataValue.quote($0) } ?? "null"), \"configuration\": \(Loading.jsonList(configuration))}"
    }
}
