import ArgumentParser
import Dispatch
import Foundation
import Statechart
import StatechartSCXML

/// `statechart run FILE [--timeout SECONDS] [--allow-dir DIR] [--datamodel null|ecmascript] [--strict]`: runs until a top-level final
/// state or the timeout, then prints `{"finished": true|false, "configuration": [...]}`.
/// Exit 0 when it finished, 1 on timeout, 2 for an invalid document or invalid arguments.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a document until it reaches a top-level final state or the timeout passes.",
        discussion: """
            Prints one JSON line {"finished": true|false, "configuration": [...]}: the top-level final \
            state it ended in, or the active atomic states at the timeout. Delayed events fire in real time. \
            The timeout also stops a macrostep that is still running (between two microsteps, so the \
            configuration printed is legal). Exit status: 0 finished, 1 timed out, 2 invalid document \
            or arguments.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    // `.unconditional`, so `--timeout -1` reaches validate() and gets its message, rather
    // than being taken for an option.
    @Option(parsing: .unconditional, help: "Seconds to wait for a top-level final state (0 to 31536000).")
    var timeout: String = "10"

    @OptionGroup var network: NetworkOptions

    @OptionGroup var access: FileAccessOptions

    @OptionGroup var document: DocumentOptions

    func validate() throws {
        try TimeoutOption.check(timeout)
        try access.check()
    }

    func run() throws {
        let seconds = TimeoutOption.seconds(timeout) ?? 0
        let machine = try Loading.runnableMachine(file) { options in
            network.apply(to: &options)
            access.apply(to: &options)
            document.apply(to: &options)
        }
        let deadline = DispatchTime.now() + seconds
        // The wall clock stops work the step bound would stop only much later (slow steps):
        // at the deadline the machine is interrupted, from this thread that waits for it.
        let done = DispatchSemaphore(value: 0)
        let core = machine.machine
        Thread.detachNewThread {
            if done.wait(timeout: deadline) == .timedOut { core.interrupt() }
        }
        // Errors of delayed events' macrosteps have no caller to throw to: the machine hands
        // them to its error observers. (Events from other sessions report through the log.)
        let file = self.file, timeout = self.timeout
        core.onError { error in Loading.printError(Self.message(error, file: file, timeout: timeout)) }
        do {
            try machine.start()
        } catch {
            Loading.printError(Self.message(error, file: file, timeout: timeout))
        }
        let left = Double(deadline.uptimeNanoseconds) - Double(DispatchTime.now().uptimeNanoseconds)
        let finished = machine.waitUntilFinished(timeout: .nanoseconds(Int64(max(left, 0))))
        let configuration = machine.configuration
        done.signal()
        emit("{\"finished\": \(finished), \"configuration\": \(Loading.jsonList(configuration))}")
        if !finished { throw ExitCode(1) }
    }

    /// `file: error: ...`; an interruption is the timeout's doing, and says so.
    static func message(_ error: Error, file: String, timeout: String) -> String {
        if case MachineError.interrupted(let configuration) = error {
            return "\(file): error: the timeout of \(timeout) seconds passed while a macrostep was running; it was stopped between two microsteps in [\(configuration.joined(separator: ", "))]"
        }
        return "\(file): error: \(error)"
    }
}
