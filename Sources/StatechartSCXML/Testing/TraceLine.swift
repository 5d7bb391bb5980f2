import Statechart

/// One line of a trace as ``SCXMLCoverage`` reads it. Three producers write traces:
/// `statechart trace` (configuration lines; with `--verbose` also microstep, unhandled and
/// error lines), the generated C trace main (configuration lines, byte for byte the same) and
/// a Swift program printing `TransitionRecord`s from `Machine.onTransition`
/// (`source -event-> targets`).
enum TraceLine: Equatable {
    /// `{"event": "NAME" or null, "configuration": ["ID", ...]}`
    case configuration(event: String?, states: [String])
    /// `{"microstep": N, "event": ..., "transitions": [{"source", "targets"}], "exited": [...],
    /// "entered": [...], ...}`; `fields` is the whole line.
    case microstep(event: String?, transitions: [Taken], exited: [String], entered: [String], fields: [String: DataValue])
    /// `source -event-> targets` (`ε` for eventless, `(targetless)`), `TransitionRecord`'s text.
    case transition(Taken)
    /// `{"unhandled": ...}`, `{"error": ...}`: nothing entered or taken; `fields` is the line.
    case note([String: DataValue])

    /// A transition as a trace names it.
    struct Taken: Equatable {
        var source: String
        var event: String?
        var targets: [String]
    }

    /// The line, or why it is not a trace line; `nil` for a blank line.
    static func parse(_ text: String) -> Result<TraceLine, TraceLineError>? {
        let line = text.trimmingCharacters(in: .whitespaces)
        if line.isEmpty { return nil }
        if line.hasPrefix("{") { return json(line) }
        return record(line)
    }

    private static func json(_ line: String) -> Result<TraceLine, TraceLineError> {
        guard case .object(let fields)? = DataValue(json: line) else { return .failure(.init("not a JSON object")) }
        func strings(_ key: String) -> [String]? {
            guard case .array(let items)? = fields[key] else { return nil }
            let names = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
            return names.count == items.count ? names : nil
        }
        func event() -> String?? {
            switch fields["event"] {
            case .string(let name)?: return .some(name)
            case .null?: return .some(nil)
            default: return nil
            }
        }
        if fields["unhandled"] != nil || fields["error"] != nil { return .success(.note(fields)) }
        if fields["microstep"] != nil {
            guard let name = event(), case .array(let list)? = fields["transitions"], let entered = strings("entered") else {
                return .failure(.init("a microstep line needs \"event\", \"transitions\" and \"entered\""))
            }
            var taken: [Taken] = []
            for item in list {
                guard case .string(let source)? = item["source"], case .array(let targetValues)? = item["targets"] else {
                    return .failure(.init("a transition needs \"source\" and \"targets\""))
                }
                let targets = targetValues.compactMap { if case .string(let s) = $0 { s } else { nil } }
                taken.append(Taken(source: source, event: name, targets: targets))
            }
            return .success(.microstep(event: name, transitions: taken, exited: strings("exited") ?? [], entered: entered,
                                       fields: fields))
        }
        if let name = event(), let states = strings("configuration") {
            return .success(.configuration(event: name, states: states))
        }
        return .failure(.init("not a line of 'statechart trace' (no \"configuration\", \"microstep\", \"unhandled\" or \"error\")"))
    }

    /// `source -event-> targets`
    private static func record(_ line: String) -> Result<TraceLine, TraceLineError> {
        guard let dash = line.range(of: " -"), let arrow = line.range(of: "-> ", range: dash.upperBound..<line.endIndex) else {
            return .failure(.init("neither JSON nor a transition 'source -event-> targets'"))
        }
        let source = String(line[..<dash.lowerBound])
        let event = String(line[dash.upperBound..<arrow.lowerBound])
        let rest = line[arrow.upperBound...]
        let targets = rest == "(targetless)" ? [] : rest.split(separator: " ").map(String.init)
        guard !source.isEmpty, !event.isEmpty else { return .failure(.init("a transition needs a source and an event")) }
        return .success(.transition(Taken(source: source, event: event == "ε" ? nil : event, targets: targets)))
    }
}

/// Why a line is not a trace line.
struct TraceLineError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
