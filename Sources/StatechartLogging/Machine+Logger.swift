import Logging
import Statechart

extension Machine {
    /// Sends what this machine reports to `logger`: errors no caller can receive (a delayed
    /// event's or an invocation result's runaway macrostep) at `.error`; events that enabled no
    /// transition at `unhandled` (`.debug` by default, `nil` for none); and every transition
    /// taken at `transitions` (`nil`, the default, for none: each one costs a log call).
    ///
    /// ```swift
    /// var logger = Logger(label: "app.checkout")
    /// logger.logLevel = .debug
    /// machine.log(to: logger, transitions: .debug)
    /// ```
    /// - Returns: the observers' tokens, for `Machine.removeObserver(_:)`.
    @discardableResult
    public func log(to logger: Logger, transitions: Logger.Level? = nil,
                    unhandled: Logger.Level? = .debug) -> [ObserverToken] {
        var tokens = [onError { error in logger.error("\(error)", metadata: ["chart": "\(self.chart.name)"]) }]
        if let level = unhandled {
            tokens.append(onUnhandled { event in
                logger.log(level: level, "unhandled event '\(event.name)'", metadata: ["chart": "\(self.chart.name)"])
            })
        }
        if let level = transitions {
            tokens.append(onTransition { transition in
                logger.log(level: level, "\(transition)", metadata: ["chart": "\(self.chart.name)"])
            })
        }
        return tokens
    }
}

extension StateMachine {
    /// Sends what this machine reports to `logger`; see ``Statechart/Machine/log(to:transitions:unhandled:)``.
    ///
    /// ```swift
    /// player.log(to: Logger(label: "app.player"), transitions: .trace)
    /// ```
    @discardableResult
    public func log(to logger: Logger, transitions: Logger.Level? = nil,
                    unhandled: Logger.Level? = .debug) -> [ObserverToken] {
        machine.log(to: logger, transitions: transitions, unhandled: unhandled)
    }
}
