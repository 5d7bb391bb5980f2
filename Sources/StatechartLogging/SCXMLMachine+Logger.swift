import Logging
import Statechart
import StatechartSCXML

extension SCXMLMachine {
    /// Sends the document's `<log>` output and the runtime's errors to `logger`, in place of a
    /// hand-written `SCXMLMachine.onLog(_:)` handler: `<log>` at `level`
    /// (`.info` by default) with its label as metadata, the runtime's reports (label `error`:
    /// undeliverable events, runaway macrosteps of sessions no caller waits for) at `.error`;
    /// and, as for ``Statechart/Machine/log(to:transitions:unhandled:)``, the machine's own
    /// errors, unhandled events and (optionally) transitions.
    ///
    /// ```swift
    /// let machine = try SCXMLMachine(contentsOf: url)
    /// machine.log(to: Logger(label: "app.workflow"))
    /// ```
    /// Replaces the `SCXMLMachine.onLog(_:)` handler; invoked sessions started
    /// afterwards log to `logger` too.
    @discardableResult
    public func log(to logger: Logger, level: Logger.Level = .info, transitions: Logger.Level? = nil,
                    unhandled: Logger.Level? = .debug) -> [ObserverToken] {
        onLog { label, message in
            if label == "error" {
                logger.error("\(message)")
            } else {
                logger.log(level: level, "\(message)", metadata: label.map { ["label": "\($0)"] })
            }
        }
        return machine.log(to: logger, transitions: transitions, unhandled: unhandled)
    }
}
