import Foundation
import Statechart

/// A trace shown on its chart: one self-contained HTML page (inline SVG, CSS and script; no
/// network access), with a step control and the list of events; at each step the active
/// states and the transitions just taken are highlighted, and the step's microsteps (their
/// transitions, raised and sent events, errors) listed beside the drawing.
///
/// ```swift
/// let dot = try SCXMLTraceViewer.dot(machine)          // render with `dot -Tsvg`
/// let html = try SCXMLTraceViewer.page(machine, svg: svg, trace: verboseTrace, title: "traffic light")
/// ```
///
/// Highlighting toggles classes on the SVG's elements (`sc-active` on states, `sc-taken` on
/// transitions); the drawing is never rebuilt, so stepping stays immediate on long traces.
/// The page opens at the step in its URL fragment (`trace.html#step=3`); step 0 is start-up.
public enum SCXMLTraceViewer {
    /// The drawing the page shows: `export --format dot`'s, with every state's node or
    /// cluster in class `sc-s-N` and every transition's arrows in class `sc-t-N` (compiled
    /// chart indices), which the page's script highlights.
    public static func dot(_ machine: SCXMLMachine) -> String {
        let diagram = ChartDiagram(machine.document)
        let items = ChartItems(chart: machine.machine.chart, diagram: diagram)
        var decoration = ChartDiagram.DOTDecoration()
        for s in items.states { decoration.states[items.chart.stateIDs[s]] = ["class=\"sc-s-\(s)\""] }
        for t in items.transitions {
            if let info = items.info[t] { decoration.transitions[.init(source: info.source, ordinal: info.ordinal)] = ["class=\"sc-t-\(t)\""] }
        }
        return diagram.dot(decoration: decoration)
    }

    /// The page for `trace` (what `statechart trace --verbose` prints for `machine`'s document;
    /// without `--verbose` no transitions are highlighted) on `svg` (``dot(_:)`` rendered by
    /// Graphviz).
    /// - Throws: ``SCXMLTraceError`` (naming the trace `file`) at the first line that is not a
    ///   trace line or does not fit the chart.
    public static func page(_ machine: SCXMLMachine, svg: String, trace: String, file: String = "trace",
                            title: String) throws -> String {
        let steps = try self.steps(machine, trace: trace, file: file)
        let chart = machine.machine.chart
        let data = DataValue.object([
            "states": .array(chart.stateIDs.map(DataValue.string)),
            "steps": .array(steps),
        ])
        // `</` would end the script element early.
        let json = data.jsonText.replacingOccurrences(of: "</", with: "<\\/")
        return TraceViewerPage.html(title: title, svg: inlineSVG(svg), json: json)
    }

    /// Graphviz's SVG without the XML declaration, doctype and comments, to sit inside HTML.
    static func inlineSVG(_ svg: String) -> String {
        guard let start = svg.range(of: "<svg") else { return svg }
        var body = String(svg[start.lowerBound...])
        while let open = body.range(of: "<!--"), let close = body.range(of: "-->", range: open.upperBound..<body.endIndex) {
            body.removeSubrange(open.lowerBound..<close.upperBound)
        }
        return body
    }

    /// Each step (start-up, then each input event) as the page's script reads it:
    /// `{"label", "active": [state indices], "taken": [transition indices], "microsteps": [...], "notes": [...]}`.
    static func steps(_ machine: SCXMLMachine, trace: String, file: String) throws -> [DataValue] {
        let chart = machine.machine.chart
        let items = ChartItems(chart: chart, diagram: ChartDiagram(machine.document))
        var steps: [DataValue] = []
        var active = Set<Int>()
        var microsteps: [DataValue] = []
        var taken: [Int] = []
        var notes: [DataValue] = []
        func index(_ id: String, _ line: Int) throws -> Int {
            guard let index = chart.index(of: id) else { throw SCXMLTraceError(file: file, line: line, message: "no state '\(id)' in the chart") }
            return index
        }
        func close(_ label: String) {
            steps.append(.object([
                "label": .string(label), "active": .array(active.sorted().map { .number(Double($0)) }),
                "taken": .array(taken.map { .number(Double($0)) }), "microsteps": .array(microsteps), "notes": .array(notes),
            ]))
            microsteps = []
            taken = []
            notes = []
        }
        for (offset, raw) in trace.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            switch TraceLine.parse(String(raw)) {
            case nil:
                continue
            case .failure(let error)?:
                throw SCXMLTraceError(file: file, line: number, message: error.message)
            case .success(.microstep(_, let transitions, let exited, let entered, let fields))?:
                for id in exited { active.remove(try index(id, number)) }
                for transition in transitions {
                    guard let t = items.transition(matching: transition) else {
                        throw SCXMLTraceError(file: file, line: number, message: "the chart has no transition \(ChartItems.text(of: transition))")
                    }
                    taken.append(t)
                }
                for id in entered { active.insert(try index(id, number)) }
                microsteps.append(.object(fields))
            case .success(.note(let fields))?:
                notes.append(.object(fields))
            case .success(.transition)?:
                throw SCXMLTraceError(file: file, line: number, message: "a transition record: the viewer reads 'statechart trace --verbose' output")
            case .success(.configuration(let event, let ids))?:
                let atomic = try ids.map { try index($0, number) }
                if microsteps.isEmpty {
                    // Without --verbose: the configuration and its ancestors.
                    active = []
                    for s in atomic { active.formUnion(items.withAncestors(s)) }
                } else {
                    let leaves = active.filter { s in !active.contains { $0 != s && items.parent(of: $0) == s } }.sorted()
                    guard leaves == atomic.sorted() else {
                        throw SCXMLTraceError(file: file, line: number, message:
                            "the microsteps before this line end in [\(leaves.map { chart.stateIDs[$0] }.joined(separator: ", "))], not [\(ids.joined(separator: ", "))]")
                    }
                }
                close(event ?? "start-up")
            }
        }
        if !microsteps.isEmpty || !notes.isEmpty { close("(events the chart sent itself)") }
        return steps
    }
}
