import ArgumentParser
import Foundation
import StatechartCodegen
import StatechartSCXML

/// `statechart generate c FILE.scxml -o DIR [--name NAME] [--trace-main] [--strict]`.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate source code from a chart.",
        subcommands: [GenerateCCommand.self]
    )
}

/// `statechart generate c`: NAME.h, NAME.c (and NAME_main.c) for CStateCore.
struct GenerateCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "c",
        abstract: "Write a null-datamodel SCXML document as C for CStateCore.",
        discussion: """
            Writes DIR/NAME.h (enums of states, events, guards and actions, the chart, the machine's \
            memory size, the hooks the firmware implements) and DIR/NAME.c (static const tables and the \
            executable content as C). With --trace-main also DIR/NAME_main.c, a main() that prints what \
            `statechart trace FILE` prints (its --firmware option traces the machine NAME_options makes, \
            with the small queues firmware gets, and reports a full queue on standard error). Build: cc -std=c11 -I CStateCore/include DIR/*.c CStateCore/*.c. \
            Load warnings (docs/COMPATIBILITY.md) are printed as file:line:column: warning: lines on \
            standard error; --strict makes them errors. Exit status: 0, or 2 with file:line:column: \
            error: lines for a document that cannot be generated (nothing is written then).
            """
    )

    @Argument(help: "The SCXML document (datamodel null).")
    var file: String

    @Option(name: .short, help: "The directory to write into (created if missing).")
    var output: String

    @Option(help: "The C name: prefix of every symbol and the files' base name (default: the file's base name).")
    var name: String?

    @Flag(help: "Also write NAME_main.c, a main() implementing the `statechart trace` contract.")
    var traceMain = false

    @Flag(help: "Refuse, as errors, the rule breaks other tools' charts are loaded with (warnings otherwise).")
    var strict = false

    func validate() throws {
        guard ArgumentBytes.isUTF8(output) else {
            Loading.printError("Error: -o '\(ArgumentBytes.display(output))': the output folder's name must be UTF-8")
            throw ExitCode(2)
        }
    }

    func run() throws {
        // The same bounded reader as the other commands: the size is checked before anything
        // is read, and directories and FIFOs are refused by type.
        let fileName = ArgumentBytes.display(file)
        let data: Data
        do {
            data = try SCXMLParser.readDocument(pathBytes: ArgumentBytes.bytes(file), fileName: fileName,
                                                limits: Loading.options.parserLimits)
        } catch {
            Loading.printError(error.description)
            throw ExitCode(2)
        }
        let files: CGeneratedFiles
        do {
            files = try CCodeGenerator.generate(scxml: data, fileName: fileName, name: name, traceMain: traceMain,
                                                strict: strict)
        } catch {
            Loading.printError(error.description)
            throw ExitCode(2)
        }
        for warning in files.warnings { Loading.printError(warning.description) }
        do {
            try files.write(to: URL(fileURLWithPath: output))
        } catch {
            Loading.printError("error: cannot write into '\(output)': \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}
