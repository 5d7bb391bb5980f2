import ArgumentParser
import Foundation
import Statechart
import StatechartSCXML

/// `statechart view FILE [--events EVENTS | --trace TRACE] -o trace.html`: a trace shown on
/// the chart, as one self-contained HTML page (``SCXMLTraceViewer``).
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write an HTML page that steps through a trace on the chart's drawing.",
        discussion: """
            --events runs an events file (the input of 'statechart trace') on the chart, as 'trace \
            --verbose' does; --trace reads what 'trace --verbose' printed instead; with neither, the \
            page shows start-up only. The page is one file with everything inline (the chart as \
            Graphviz draws 'export --format dot', its script and style; no network access): the \
            active states and the transitions just taken are highlighted at each step, with the \
            step's microsteps (transitions, raised and sent events, errors) beside the drawing. Step \
            with the buttons, the slider, the arrow keys or the list of events; 'trace.html#step=N' \
            opens at step N (0 is start-up). Needs Graphviz's dot on PATH. \
            Exit status: 0; 2 for an invalid document, invalid arguments or a trace line that does \
            not fit the chart; 1 if a file cannot be read or written or dot fails.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    @Option(help: ArgumentHelp("Events to run, one per line (as 'trace' reads them).", valueName: "EVENTS"))
    var events: String?

    @Option(help: ArgumentHelp("Output of 'statechart trace --verbose' to show.", valueName: "TRACE"))
    var trace: String?

    @Option(name: .short, help: ArgumentHelp("The HTML file to write.", valueName: "HTML"))
    var output: String

    @OptionGroup var access: FileAccessOptions

    @OptionGroup var document: DocumentOptions

    func validate() throws {
        if events != nil && trace != nil {
            Loading.printError("Error: give --events or --trace, not both")
            throw ExitCode(2)
        }
        try access.check()
    }

    func run() throws {
        let machine = try Loading.runnableMachine(file) { options in
            access.apply(to: &options)
            document.apply(to: &options)
            options.clock = TestClock()
            options.hostRunsSessions = true     // as `trace` runs it
        }
        let input = try (events ?? trace).map(read) ?? ""
        var lines: [String] = []
        if trace != nil {
            lines = [input]
        } else {
            var pending = input.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }[...]
            if input.hasSuffix("\n") { pending = pending.dropLast() }
            let traced = TracedLines()
            _ = TraceCommand.trace(machine, verbose: true, timeout: "10", nextLine: { pending.popFirst().map { .line($0) } },
                                   output: { traced.append($0) })
            lines = traced.lines
        }
        let page: String
        do {
            let svg = try Graphviz.svg(SCXMLTraceViewer.dot(machine))
            page = try SCXMLTraceViewer.page(machine, svg: svg, trace: lines.joined(separator: "\n"), file: trace ?? "trace",
                                             title: machine.document.name ?? URL(fileURLWithPath: file).lastPathComponent)
        } catch let error as SCXMLTraceError {
            Loading.printError(error.description)
            throw ExitCode(2)
        }
        try Graphviz.write(page, to: output)
    }

    private func read(_ path: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            Loading.printError("error: cannot read '\(path)': \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}

/// The lines a trace writes, collected for the page (the recorder may write from the thread
/// that runs the machine's macrostep).
private final class TracedLines: @unchecked Sendable {
    // @unchecked: `collected` is only read and written holding `lock`.
    private let lock = NSLock()
    private var collected: [String] = []

    func append(_ line: String) { lock.withLock { collected.append(line) } }

    var lines: [String] { lock.withLock { collected } }
}
