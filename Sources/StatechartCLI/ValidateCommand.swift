import ArgumentParser
import StatechartSCXML

/// `statechart validate FILE... [--allow-dir DIR] [--datamodel null|ecmascript] [--strict]`
/// (`<script src>` is loaded when validating): prints each error as
/// `file:line:column: error: message` and each warning as `file:line:column: warning: message`
/// on standard error (diagnostics, not results: standard output stays empty),
/// all of a document's in document order; exit 0 when every file is valid (warnings or not),
/// 2 otherwise.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check SCXML documents; print each error as file:line:column: error: message.",
        discussion: "Every error and warning of a document is printed on standard error, in document order. Exit status: 0 when every document is valid (with warnings or not), 2 when any is not."
    )

    @Argument(help: "SCXML documents to check.")
    var files: [String]

    @OptionGroup var access: FileAccessOptions

    @OptionGroup var document: DocumentOptions

    func validate() throws { try access.check() }

    func run() throws {
        var valid = true
        for file in files {
            switch Loading.machine(file, adjust: { access.apply(to: &$0); document.apply(to: &$0) }) {
            case .success(let machine):
                for warning in machine.warnings { Loading.printError(warning.description) }
            case .failure(let error):
                valid = false
                for diagnostic in error.diagnostics { Loading.printError(diagnostic.description) }
            }
        }
        if !valid { throw ExitCode(2) }
    }
}
