import ArgumentParser
import Foundation

/// `statechart`: validate, run, trace, draw and export SCXML documents.
@main
struct StatechartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statechart",
        abstract: "Validate, run, trace and export W3C SCXML statecharts.",
        discussion: """
            Every command writes its results (JSON lines, diagrams, SCXML, test results) on standard \
            output and its diagnostics (file:line:column: error: and warning: lines, log lines, \
            messages) on standard error.

            Exit status, for every command: 0 success; 1 a runtime failure (a timeout, a test that \
            failed, an input line that was skipped, a file or standard output that could not be \
            written); 2 invalid input (a document that is not valid, empty or unreadable, a bad \
            option or argument). Each command's help says which apply to it.
            """,
        subcommands: [ValidateCommand.self, RunCommand.self, TraceCommand.self, ExportCommand.self,
                      ConformanceCommand.self, GenerateCommand.self,
                      PathsCommand.self,
                      CoverageCommand.self,
                      ViewCommand.self]
    )

    /// ArgumentParser's own usage errors (an unknown option, a bad value) exit with 64
    /// (EX_USAGE); the commands document 2 for invalid arguments, as for their own checks, so
    /// a script tests one status.
    /// The arguments are the command line's bytes (``ArgumentBytes``): a file name that is not
    /// UTF-8 reaches the command whole.
    static func main() {
        StandardStreams.ignoreBrokenPipes()
        do {
            var command = try parseAsRoot(ArgumentBytes.arguments())
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardStreams.error(fullMessage(for: error) + "\n")
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
