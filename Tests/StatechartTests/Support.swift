import Foundation
import Statechart
import XCTest

/// A thread-safe list of what the machine did, in order: "enter s1", "exit s1", "take t1".
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// The number of entries logged since the last ``take()``.
    var count: Int { lock.withLock { entries.count } }

    /// Everything logged since the last ``take()``, without clearing it.
    func snapshot() -> [String] { lock.withLock { entries } }

    /// Everything logged since the last call.
    func take() -> [String] {
        lock.withLock {
            defer { entries.removeAll() }
            return entries
        }
    }
}

/// Builders that log entry, exit and transition actions, so tests can assert their exact order.
struct Charts {
    let log = Log()

    func state(_ id: String, initial: [String] = [], _ children: [StateDefinition] = [],
               on transitions: [TransitionDefinition] = []) -> StateDefinition {
        StateDefinition(id, initial: initial, children: children, transitions: transitions,
                        onEntry: [logging("enter \(id)")], onExit: [logging("exit \(id)")])
    }

    func parallel(_ id: String, _ children: [StateDefinition], on transitions: [TransitionDefinition] = []) -> StateDefinition {
        StateDefinition(id, kind: .parallel, children: children, transitions: transitions,
                        onEntry: [logging("enter \(id)")], onExit: [logging("exit \(id)")])
    }

    func final(_ id: String) -> StateDefinition {
        StateDefinition(id, kind: .final, onEntry: [logging("enter \(id)")], onExit: [logging("exit \(id)")])
    }

    /// A transition that logs "take <name>" when taken.
    func on(_ events: String?, to targets: [String] = [], _ name: String, type: TransitionType = .external,
            guard condition: Guard? = nil) -> TransitionDefinition {
        TransitionDefinition(on: events.map { $0.split(separator: " ").map(String.init) } ?? [],
                             guard: condition, to: targets, type: type, actions: [logging("take \(name)")])
    }

    func logging(_ entry: String) -> Action {
        let log = self.log
        return { _ in log.add(entry) }
    }

    func start(_ states: [StateDefinition], initial: [String] = [],
               file: StaticString = #filePath, line: UInt = #line) throws -> Machine {
        let machine = Machine(try CompiledChart(ChartDefinition(name: "test", initial: initial, states: states)))
        try machine.start()
        return machine
    }
}
