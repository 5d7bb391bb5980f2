import ArgumentParser
import Foundation
import Statechart
import StatechartSCXML

/// `statechart trace FILE`: events from standard input, one per line (`NAME` or `NAME {json}`);
/// after start-up and after each input event's macrostep, one line
/// `{"event": ..., "configuration": [...]}` on standard output, flushed at once.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Start a document, feed it events from standard input, print the configuration after each.",
        discussion: """
            Input: one event per line, a name optionally followed by one space and a JSON value (the \
            event's data). Output: {"event": null, "configuration": [...]} once start-up's macrostep has \
            completed, then {"event": "NAME", "configuration": [...]} after each input event's macrostep. \
            Events the chart sends to itself meanwhile run after that line is printed, before the next \
            input line is read. A halted machine keeps reporting the configuration it halted in. \
            Exit status: 0 at end of input, 2 for an invalid document.
            """
    )

    @Argument(help: "The SCXML document.")
    var file: String

    @OptionGroup var network: NetworkOptions

    func run() throws {
        let machine = try Loading.runnableMachine(file, adjust: network.apply)
        report(machine, event: nil, error: catching { try machine.start() })
        while let line = readLine(strippingNewline: true) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let name: String
            var data: DataValue?
            if let space = line.firstIndex(of: " ") {
                name = String(line[..<space])
                let json = String(line[line.index(after: space)...])
                guard let parsed = DataValue(json: json) else {
                    Loading.printError("trace: '\(json)' is not JSON; event '\(name)' sent without data")
                    data = nil
                    report(machine, event: name, error: catching { try step(machine, name, nil) })
                    continue
                }
                data = parsed
            } else {
                name = line
            }
            report(machine, event: name, error: catching { try step(machine, name, data) })
            if let error = catching({ try machine.machine.processQueuedEvents() }) {
                Loading.printError("trace: \(error)")
            }
        }
    }

    private func step(_ machine: SCXMLMachine, _ name: String, _ data: DataValue?) throws {
        try machine.machine.step(Event(name, payload: SCXMLEvent(name: name, type: .external, data: data)))
    }

    private func catching(_ body: () throws -> Void) -> Error? {
        do { try body() } catch { return error }
        return nil
    }

    private func report(_ machine: SCXMLMachine, event: String?, error: Error?) {
        if let error { Loading.printError("trace: \(error)") }
        let eventText = event.map { DataValue.quote($0) } ?? "null"
        emit("{\"event\": \(eventText), \"configuration\": \(Loading.jsonList(machine.configuration))}")
    }
}
