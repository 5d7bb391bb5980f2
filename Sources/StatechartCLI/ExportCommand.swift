import ArgumentParser
import Foundation
import Statechart
import StatechartSCXML

/// `statechart export FILE --format dot|mermaid|scxml [-o OUT] [--allow-dir DIR]`: the chart
/// as a Graphviz graph, a Mermaid state diagram or SCXML, on standard output or into OUT.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a document as a Graphviz DOT graph, a Mermaid state diagram, or SCXML.",
        discussion: """
            dot: compound states are clusters with a point marking their default entry, parallel \
            states clusters labelled '(parallel)' with dashed regions, final states double-bordered \
            boxes, history states circles 'H'/'H*' with a dashed arrow to their default; arrows carry \
            'events [cond]'. Render with: statechart export FILE --format dot | dot -Tsvg -o chart.svg. \
            mermaid: a stateDiagram-v2 ('--' between parallel regions, final states --> [*]). \
            scxml: the document as the library reads it (states, transitions, executable content, \
            data, invocations; generated ids left out), which loads again and runs the same. \
            The document is loaded and checked as 'run' does (its warnings go to standard error). Exit status: 0, or 2 with \
            file:line:column: error: lines for an invalid document, or 2 for invalid arguments; 1 if \
            the output file cannot be written.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    @Option(help: ArgumentHelp("What to write: dot, mermaid or scxml.", valueName: "dot|mermaid|scxml"))
    var format: String

    @Option(name: .short, help: ArgumentHelp("Write into this file instead of standard output.", valueName: "FILE"))
    var output: String?

    @OptionGroup var access: FileAccessOptions

    @OptionGroup var document: DocumentOptions

    static let formats = ["dot", "mermaid", "scxml"]

    func validate() throws {
        guard Self.formats.contains(format) else {
            Loading.printError("Error: --format must be dot, mermaid or scxml, not '\(format)'")
            throw ExitCode(2)
        }
        try access.check()
    }

    func run() throws {
        let loaded: SCXMLDocument
        switch Loading.machine(file, adjust: { access.apply(to: &$0); document.apply(to: &$0) }) {
        case .success(let machine):
            for warning in machine.warnings { Loading.printError(warning.description) }
            loaded = machine.document
        case .failure(let error):
            Loading.printError(error.description)
            throw ExitCode(2)
        }
        let text = switch format {
        case "dot": loaded.dot()
        case "mermaid": loaded.mermaid()
        default: loaded.scxml()
        }
        guard let output else {
            StandardStreams.output(text)
            return
        }
        if let reason = StandardStreams.writeFile(text, pathBytes: ArgumentBytes.bytes(output)) {
            Loading.printError("error: cannot write '\(ArgumentBytes.display(output))': \(reason)")
            throw ExitCode(1)
        }
    }
}
