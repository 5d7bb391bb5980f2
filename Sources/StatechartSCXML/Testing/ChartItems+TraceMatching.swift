import Statechart

extension ChartItems {
    /// The chart's transition a trace names (source, targets as written, and the event it was
    /// taken on, `nil` for eventless): the first in document order whose descriptors match the
    /// event (SCXML's name matching), or `nil` when the chart has none.
    func transition(matching taken: TraceLine.Taken) -> Int? {
        (transitionsBySource[taken.source] ?? []).first { t in
            guard let info = info[t], info.source == taken.source, chart.targetsOfTransition(t) == taken.targets else {
                return false
            }
            guard let event = taken.event else { return info.events.isEmpty }
            return info.events.contains { ChartItems.descriptor($0, matches: event) }
        }
    }

    /// `source -event-> targets` as a trace names a transition, for messages.
    static func text(of taken: TraceLine.Taken) -> String {
        "\(taken.source) -\(taken.event ?? "ε")-> \(taken.targets.isEmpty ? "(targetless)" : taken.targets.joined(separator: " "))"
    }
}
