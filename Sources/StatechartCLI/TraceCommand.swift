import ArgumentParser
import Foundation
import Statechart
import StatechartSCXML

/// `statechart trace FILE [--allow-dir DIR] [--verbose]`: events from standard input, one per line (`NAME` or `NAME {json}`);
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
            trace does not depend on how fast input arrives. A halted machine keeps reporting the \
            configuration it halted in. Exit status: 0 at end of input, 1 if a line was not valid UTF-8, \
            2 for an invalid document or invalid arguments.

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

    func validate() throws { try access.check() }

    func run() throws {
        let machine = try Loading.runnableMachine(file) { options in
            network.apply(to: &options)
            access.apply(to: &options)
            document.apply(to: &options)
            options.clock = TestClock()     // virtual time, never advanced: delayed sends stay pending
        }
        let rejected = Self.trace(machine, verbose: verbose, nextLine: Self.readLine, output: emit)
        if rejected { throw ExitCode(1) }
    }

    /// Runs `machine` on the lines `nextLine` returns (until `nil`) and writes what `trace`
    /// prints to `output`, one line per call; returns whether a line was not valid UTF-8.
    /// `statechart view` runs an events file through it too.
    static func trace(_ machine: SCXMLMachine, verbose: Bool, nextLine: () -> [UInt8]?,
                      output: (String) -> Void) -> Bool {
        let recorder = verbose ? MicrostepRecorder(machine) : nil
        report(machine, event: nil, error: catching { try machine.machine.startStep() }, recorder: recorder, output: output)
        runQueued(machine, recorder: recorder, output: output)
        var number = 0
        var rejected = false
        while let bytes = nextLine() {
            number += 1
            guard let line = String(validating: bytes, as: UTF8.self) else {
                Loading.printError("trace: line \(number) is not valid UTF-8; skipped")
                rejected = true
                continue
            }
            guard let (name, json) = Self.split(line) else { continue }
            var data: DataValue?
            if let json {
                data = DataValue(json: json)
                if data == nil { Loading.printError("trace: '\(json)' is not JSON; event '\(name)' sent without data") }
            }
            report(machine, event: name, error: catching { try step(machine, name, data) }, recorder: recorder, output: output)
            runQueued(machine, recorder: recorder, output: output)
        }
        return rejected
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

    /// One line of standard input as bytes, without its "\n"; `nil` at the end of input.
    private static func readLine() -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            let c = getchar()
            if c == EOF { return bytes.isEmpty ? nil : bytes }
            if c == 0x0A { return bytes }
            bytes.append(UInt8(truncatingIfNeeded: c))
        }
    }

    private static func runQueued(_ machine: SCXMLMachine, recorder: MicrostepRecorder?, output: (String) -> Void) {
        let error = catching { try machine.machine.processQueuedEvents() }
        if let error { Loading.printError("trace: \(error)") }
        emitMicrosteps(recorder, error: error, output: output)
    }

    /// With `--verbose`, the microsteps recorded since the last call, then the error that
    /// stopped the macrostep, if any.
    private static func emitMicrosteps(_ recorder: MicrostepRecorder?, error: Error?, output: (String) -> Void) {
        guard let recorder else { return }
        for line in recorder.takeLines() { output(line) }
        if let error { output("{\"error\": \(DataValue.quote("\(error)"))}") }
    }

    private static func step(_ machine: SCXMLMachine, _ name: String, _ data: DataValue?) throws {
        try machine.machine.step(Event(name, payload: SCXMLEvent(name: name, type: .external, data: data)))
    }

    private static func catching(_ body: () throws -> Void) -> Error? {
        do { try body() } catch { return error }
        return nil
    }

    private static func report(_ machine: SCXMLMachine, event: String?, error: Error?, recorder: MicrostepRecorder?,
                               output: (String) -> Void) {
        if let error { Loading.printError("trace: \(error)") }
        emitMicrosteps(recorder, error: error, output: output)
        output(Self.configurationLine(event: event, configuration: machine.configuration))
    }
}
