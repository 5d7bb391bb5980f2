import ArgumentParser
import StatechartSCXML

/// `statechart validate FILE... [--allow-dir DIR]` (`<script src>` is loaded when validating): prints each error as `file:line:column: error: message`;
/// exit 0 when every file is valid, 2 otherwise.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check SCXML documents; print each error as file:line:column: error: message.",
        discussion: "Exit status: 0 when every document is valid, 2 when any is not."
    )

    @Argument(help: "SCXML documents to check.")
    var files: [String]

    @OptionGroup var access: FileAccessOptions

    func validate() throws { try access.check() }

    func run() throws {
        var valid = true
        for file in files {
            if case .failure(let error) = Loading.machine(file, adjust: access.apply) {
                valid = false
                for diagnostic in error.diagnostics { emit(diagnostic.description) }
            }
        }
        if !valid { throw ExitCode(2) }
    }
}
