import ArgumentParser

/// `statechart`: validate, run and trace SCXML documents.
@main
struct StatechartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statechart",
        abstract: "Validate, run and trace W3C SCXML statecharts.",
        subcommands: [ValidateCommand.self, RunCommand.self, TraceCommand.self, ConformanceCommand.self, GenerateCommand.self]
    )
}
