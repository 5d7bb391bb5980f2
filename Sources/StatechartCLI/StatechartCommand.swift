import ArgumentParser
import Foundation

/// `statechart`: validate, run, trace, draw and export SCXML documents.
@main
struct StatechartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statechart",
        abstract: "Validate, run, trace and export W3C SCXML statecharts.",
        discussion: "Exit status 2 means an invalid document or invalid arguments, for every command.",
        subcommands: [ValidateCommand.self, RunCommand.self, TraceCommand.self, ExportCommand.self,
                      ConformanceCommand.self, GenerateCommand.self,
                      PathsCommand.self,
                      CoverageCommand.self,
                      ViewCommand.self]
    )

    /// ArgumentParser's own usage errors (an unknown option, a bad value) exit with 64
    /// (EX_USAGE); the commands document 2 for invalid arguments, as for their own checks, so
    /// a script tests one status.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
