import ArgumentParser
import StatechartSCXML

/// `statechart run FILE [--timeout SECONDS]`: runs until a top-level final state or the
/// timeout, then prints `{"finished": true|false, "configuration": [...]}`.
/// Exit 0 when it finished, 1 on timeout, 2 for an invalid document.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a document until it reaches a top-level final state or the timeout passes.",
        discussion: """
            Prints one JSON line {"finished": true|false, "configuration": [...]}: the top-level final \
            state it ended in, or the active atomic states at the timeout. Delayed events fire in real time. \
            Exit status: 0 finished, 1 timed out, 2 invalid document.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    @OptionGroup var network: NetworkOptions

    @Option(help: "Seconds to wait for a top-level final state.")
    var timeout: Double = 10

    func run() throws {
        let machine = try Loading.runnableMachine(file, adjust: network.apply)
        do {
            try machine.start()
        } catch {
            Loading.printError("\(file): error: \(error)")
        }
        let finished = machine.waitUntilFinished(timeout: .milliseconds(Int64(max(timeout, 0) * 1000)))
        emit("{\"finished\": \(finished), \"configuration\": \(Loading.jsonList(machine.configuration))}")
        if !finished { throw ExitCode(1) }
    }
}
