import ArgumentParser
import Foundation
import Statechart
import StatechartCodegen
import StatechartSCXML

/// `statechart trace FILE [--allow-dir DIR] [--verbose] [--timeout SECONDS]`: events from standard input, one per line (`NAME` or `NAME {json}`);
/// after start-up and after each input event's macrostep, one line
/// `{"event": ..., "configuration": [...]}` on standard output, flushed at once.
///
/// `statechart generate c --trace-main` writes a C `main()` that keeps this same contract, byte
/// for byte on standard output (`Sources/StatechartCodegen/CTraceMainWriter.swift`): change both
/// together.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Start a document, feed it events from standard input, print the configuration after each.",
        discussion: """
            Input: one event per line, a name optionally followed by a space and a JSON value (the \
            event's data). Leading and trailing spaces, tabs and carriage returns are ignored and empty \
            lines skipped; a line that is not valid UTF-8 is reported on standard error and skipped. \
            Output: {"event": null, "configuration": [...]} once start-up's macrostep has completed, then \
            {"event": "NAME", "configuration": [...]} after each input event's macrostep (the active \
            atomic states in document order). Events the chart sends to itself during a macrostep \
            (start-up's included) run after that macrostep's line is printed, before the next input line \
            is read. Delayed <send>s run in virtual time that does not advance: they stay pending, so a \
            trace does not depend on how fast input arrives. Invoked sessions (<invoke>) run on the \
            trace's thread too: after a line's work and the events the chart sent itself, the sessions \
            it invoked start, run and deliver what they send, and the chart takes those events, all in \
            the order they were sent, before the next input line is read; so a chart with <invoke> \
            traces the same way every time. A halted machine keeps reporting the \
            configuration it halted in. An input line may be at most 1048576 bytes: a longer one \
            stops the trace (on standard error). --timeout bounds each line's work (its macrostep and \
            the events the chart sent itself after it; start-up's too): past it the work is stopped \
            between two microsteps, the configuration line is printed as usual, the timeout is \
            reported on standard error, and the trace goes on with the next line. Exit status: 0 at \
            end of input, 1 if a line was not valid UTF-8 or too long or a line's work timed out, 2 \
            for an invalid document or invalid arguments.

            --verbose: before each macrostep's line (and for the macrosteps of events the chart sent to \
            itself, after they run), one JSON line per microstep, numbered through the whole trace: \
            {"microstep": N, "event": "NAME" or null (eventless, or start-up's entry), "transitions": \
            [{"source": "ID", "targets": ["ID", ...]}, ...], "exited": [...], "entered": [...] (in the \
            order they happened), "raised": ["NAME", ...] (<raise>), "sent": [{"event": "NAME", "target": \
            "URI" or null (the session itself), "delay": SECONDS}, ...] (<send>), "errors": [{"event": \
            "error.execution", "message": "..."}, ...] (error events raised because content failed)}. \
            An external event (an input line, or a <send> to the session itself) that enabled no \
            transition prints {"unhandled": "NAME"}; a macrostep that stopped \
            (runaway, a full queue) prints {"error": "MESSAGE"} after its microsteps.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    @OptionGroup var network: NetworkOptions

    @OptionGroup var access: FileAccessOptions

    @OptionGroup var document: DocumentOptions

    @Flag(help: "Also print each microstep as a JSON line: event, transitions, states exited and entered, events raised and sent, errors.")
    var verbose = false

    // `.unconditional`, so `--timeout -1` reaches validate() and gets its message.
    @Option(parsing: .unconditional, help: "Seconds one input line's work may run (0 to 31536000; default 10).")
    var timeout: String = "10"

    /// The longest input line read, in bytes (its "\n" not counted): a longer line stops the
    /// trace, so input without line breaks (`< /dev/zero`) costs bounded memory and time. The
    /// contract's one number, shared with the generated C trace main.
    static let maximumLineLength = CTraceMainWriter.maximumLineLength

    func validate() throws {
        try TimeoutOption.check(timeout)
        try access.check()
    }

    func run() throws {
        let machine = try Loading.runnableMachine(file) { options in
            network.apply(to: &options)
            access.apply(to: &options)
            document.apply(to: &options)
            options.clock = TestClock()     // virtual time, never advanced: delayed sends stay pending
            options.hostRunsSessions = true // invoked sessions run in order on this thread, after each line
        }
        let failed = Self.trace(machine, verbose: verbose, timeout: timeout, nextLine: Self.readLine, output: emit)
        if failed { throw ExitCode(1) }
    }

    /// Runs `machine` on the lines `nextLine` returns (until `nil`) and writes what `trace`
    /// prints to `output`, one line per call; returns whether a line failed (not valid UTF-8,
    /// its work stopped by `timeout` seconds, or too long, which ends the trace).
    /// `statechart view` runs an events file through it too.
    static func trace(_ machine: SCXMLMachine, verbose: Bool, timeout: String, nextLine: () -> InputLine?,
                      output: @escaping @Sendable (String) -> Void) -> Bool {
        let recorder = verbose ? MicrostepRecorder(machine, output: output) : nil
        let watchdog = LineWatchdog(machine: machine.machine, seconds: TimeoutOption.seconds(timeout) ?? 0)
        let line = LineReport(machine: machine, recorder: recorder, timeout: timeout, output: output)
        var failed = false
        func lineWork(event: String?, _ body: () throws -> Void) {
            let timedOut = watchdog.run {
                let error = catching(body)
                line.report(event: event, error: error)
                if !isInterruption(error) { line.runQueued() }
            }
            failed = failed || timedOut
        }
        lineWork(event: nil) { try machine.machine.startStep() }
        var number = 0
        while let input = nextLine() {
            number += 1
            guard case .line(let bytes) = input else {
                Loading.printError("trace: line \(number) is longer than \(maximumLineLength) bytes; stopped")
                return true
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                Loading.printError("trace: line \(number) is not valid UTF-8; skipped")
                failed = true
                continue
            }
            guard let (name, json) = split(text) else { continue }
            var data: DataValue?
            if let json {
                data = DataValue(json: json)
                if data == nil { Loading.printError("trace: '\(json)' is not JSON; event '\(name)' sent without data") }
            }
            lineWork(event: name) { try step(machine, name, data) }
        }
        return failed
    }

    /// The event name and the JSON text after it, or `nil` for a blank line. Spaces, tabs and
    /// carriage returns around the line are ignored; the name ends at the first space or tab.
    static func split(_ line: String) -> (name: String, json: String?)? {
        // Bytes, not Characters: a space followed by a combining mark is one Character but is
        // still a space here, as in the generated C main.
        let bytes = Array(line.utf8)
        func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else {
            return nil
        }
        let text = bytes[first...last]
        guard let space = text.firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) else {
            return (String(decoding: text, as: UTF8.self), nil)
        }
        let rest = text[space...].drop(while: blank)
        return (String(decoding: text[..<space], as: UTF8.self), String(decoding: rest, as: UTF8.self))
    }

    /// A line of standard input.
    enum InputLine {
        /// Its bytes, without the "\n".
        case line([UInt8])
        /// More than ``maximumLineLength`` bytes before a "\n" (the rest is not read).
        case tooLong
    }

    /// One line of standard input; `nil` at the end of input.
    static func readLine() -> InputLine? {
        var bytes: [UInt8] = []
        while true {
            let c = getchar()
            if c == EOF { return bytes.isEmpty ? nil : .line(bytes) }
            if c == 0x0A { return .line(bytes) }
            guard bytes.count < maximumLineLength else { return .tooLong }
            bytes.append(UInt8(truncatingIfNeeded: c))
        }
    }

    /// Whether `error` is the timeout's interruption (then the machine dropped what it had
    /// queued, and the line's work is over).
    private static func isInterruption(_ error: Error?) -> Bool {
        if case MachineError.interrupted? = error as? MachineError { return true }
        return false
    }

    private static func step(_ machine: SCXMLMachine, _ name: String, _ data: DataValue?) throws {
        try machine.machine.step(Event(name, payload: SCXMLEvent(name: name, type: .external, data: data)))
    }

    private static func catching(_ body: () throws -> Void) -> Error? {
        do { try body() } catch { return error }
        return nil
    }

    /// What one line's work writes: its errors on standard error, its microsteps (with
    /// `--verbose`) and configuration line to the trace's output.
    private struct LineReport {
        let machine: SCXMLMachine
        let recorder: MicrostepRecorder?
        let timeout: String
        let output: @Sendable (String) -> Void

        /// The events the chart sent itself, then the work of its invoked sessions (with the
        /// events they send it), each in the order it was sent.
        func runQueued() {
            let error = catching { try machine.machine.processQueuedEvents() }
            if let error { Loading.printError(message(error)) }
            emitMicrosteps(error: error)
            if !machine.runSessionWork() {
                Loading.printError("trace: the invoked sessions still had work after \(SCXMLMachine.sessionWorkLimit) deliveries; the rest runs after the next line")
            }
            emitMicrosteps(error: nil)
        }

        func report(event: String?, error: Error?) {
            if let error { Loading.printError(message(error)) }
            emitMicrosteps(error: error)
            output(TraceCommand.configurationLine(event: event, configuration: machine.configuration))
        }

        /// `trace: ERROR`; the timeout's interruption says which timeout passed.
        private func message(_ error: Error) -> String {
            if case MachineError.interrupted(let configuration)? = error as? MachineError {
                return "trace: the timeout of \(timeout) seconds passed while a line's work was running; it was stopped between two microsteps in [\(configuration.joined(separator: ", "))]"
            }
            return "trace: \(error)"
        }

        /// With `--verbose`, the microstep still open (the others were written as they ended),
        /// then the error that stopped the macrostep, if any.
        private func emitMicrosteps(error: Error?) {
            guard let recorder else { return }
            recorder.finishMicrostep()
            if let error { output("{\"error\": \(DataValue.quote("\(error)"))}") }
        }
    }
}
