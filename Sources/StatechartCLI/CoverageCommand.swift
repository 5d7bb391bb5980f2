import ArgumentParser
import Foundation
import StatechartSCXML

/// `statechart coverage FILE TRACE... [--dot OUT] [--svg OUT]`: which states the traces
/// entered and which transitions they took (``SCXMLCoverage``).
struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Report which states and transitions of a chart a set of traces exercised.",
        discussion: """
            A trace is what 'statechart trace' prints (with or without --verbose), what the main \
            'generate c --trace-main' writes prints, or one transition per line as Swift's \
            TransitionRecord prints it ('source -event-> targets', from Machine.onTransition). Traces \
            of configuration lines only are replayed on the chart as 'trace' runs it (events without \
            data; invoked sessions run after each line), each configuration checked; lines naming \
            transitions are matched to the chart's. \
            Output, on standard output: the summary line 'states: E of S entered (P%); transitions: T \
            of N taken (Q%)', then 'missed: state 'ID'' and 'missed: transition SOURCE -EVENT [COND]-> \
            TARGETS' lines in document order. --dot writes the chart (as 'export --format dot' draws it) \
            with what was never exercised in red; --svg renders that with Graphviz's dot. \
            Exit status: 0; 2 for an invalid document, invalid arguments, or a trace line that does \
            not fit the chart (reported as TRACE:LINE: error: ...); 1 if a file cannot be read or written.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    @Argument(help: "Trace files.")
    var traces: [String]

    @Option(help: ArgumentHelp("Write the marked chart as DOT into this file.", valueName: "FILE"))
    var dot: String?

    @Option(help: ArgumentHelp("Write the marked chart as SVG (Graphviz's dot) into this file.", valueName: "FILE"))
    var svg: String?

    @OptionGroup var access: FileAccessOptions

    @OptionGroup var document: DocumentOptions

    func validate() throws {
        guard !traces.isEmpty else {
            Loading.printError("Error: give at least one trace file")
            throw ExitCode(2)
        }
        try access.check()
    }

    func run() throws {
        let (machine, options, baseURL) = try Loading.machineAndOptions(file, access: access, document: document)
        var coverage = try SCXMLCoverage(document: machine.document, baseURL: baseURL, options: options)
        for trace in traces {
            let text: String
            do {
                text = try String(contentsOfFile: trace, encoding: .utf8)
            } catch {
                Loading.printError("error: cannot read '\(trace)': \(error.localizedDescription)")
                throw ExitCode(1)
            }
            do {
                try coverage.add(trace: text, file: trace)
            } catch let error as SCXMLTraceError {
                Loading.printError(error.description)
                throw ExitCode(2)
            }
        }
        emit(coverage.summary)
        for item in coverage.missed { emit("missed: \(item)") }
        let drawing = coverage.dot()
        if let dot { try Graphviz.write(drawing, to: dot) }
        if let svg { try Graphviz.write(try Graphviz.svg(drawing), to: svg) }
    }
}
