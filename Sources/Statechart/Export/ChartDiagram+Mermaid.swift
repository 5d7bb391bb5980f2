extension ChartDiagram {
    /// The diagram as a Mermaid state diagram (`stateDiagram-v2`).
    ///
    /// A compound state is a `state ID { ... }` block starting with `[*] --> ` its default
    /// entry; a parallel state's regions are separated by `--`; a final state gets an arrow to
    /// `[*]`; a history state is `state "H" as ID` (`"H*"` when deep) with an arrow to its
    /// default. Arrows carry `events [condition]`; a targetless transition is a loop.
    ///
    /// Each arrow is written in the innermost block that contains its source and targets (never
    /// in a parallel block, where a line would belong to a region), because a state named
    /// inside a block that does not declare it would be a new state there. Mermaid draws arrows
    /// between states of different blocks from the outer block (its documentation lists these
    /// as unsupported, and they may be routed roughly). Ids that are not plain names
    /// (letters, digits, `_`) or are Mermaid keywords are written as `state "ID" as sN`.
    /// In labels `#`, `;`, `:`, `<`, `>` and `"` are written as Mermaid entity codes (`#35;`, ...).
    ///
    /// ```swift
    /// let text = ChartDiagram(ChartDefinition(name: "switch", states: [
    ///     StateDefinition("off", transitions: [TransitionDefinition(on: "flip", to: "on")]),
    ///     StateDefinition("on", transitions: [TransitionDefinition(on: "flip", to: "off")]),
    /// ])).mermaid()
    /// // stateDiagram-v2
    /// //     [*] --> off
    /// //     off
    /// //     on
    /// //     off --> on : flip
    /// //     on --> off : flip
    /// ```
    ///
    /// - Complexity: O(states × depth + transitions × targets × depth).
    public func mermaid() -> String {
        var writer = MermaidWriter(diagram: self)
        writer.line(0, "stateDiagram-v2")
        writer.block(nil, initial: initial, children: states, depth: 1)
        return writer.text
    }
}

/// Writes the Mermaid text of a ``ChartDiagram``.
struct MermaidWriter {
    private let parents: [String: String?]
    private var kinds: [String: ChartDiagram.Kind] = [:]
    /// Mermaid names of the states whose ids cannot be written as they are.
    private var aliases: [String: String] = [:]
    /// Arrow lines by the block they are written in (`nil`: the diagram itself).
    private var arrows: [String?: [String]] = [:]
    private(set) var text = ""

    /// Words Mermaid's state diagram grammar (`stateDiagram.jison`, case-insensitive) reads as
    /// keywords where a state id would stand, lowercased.
    static let keywords: Set<String> = ["state", "note", "end", "direction", "class", "classdef", "default",
                                        "scale", "hide", "as", "statediagram", "acctitle", "accdescr",
                                        "style", "click", "href"]

    /// Nesting depth of each state (top-level states 0).
    private var depths: [String: Int] = [:]

    init(diagram: ChartDiagram) {
        parents = diagram.parents()
        var ids = Set<String>()
        var all: [ChartDiagram.State] = []
        var depths: [String: Int] = [:]
        func collect(_ states: [ChartDiagram.State], depth: Int) {
            for state in states {
                ids.insert(state.id)
                all.append(state)
                depths[state.id] = depth
                collect(state.children, depth: depth + 1)
            }
        }
        collect(diagram.states, depth: 0)
        self.depths = depths
        var number = 0
        for state in all {
            kinds[state.id] = state.kind
            if Self.isPlainName(state.id) { continue }
            var alias: String
            repeat { number += 1; alias = "s\(number)" } while ids.contains(alias)
            aliases[state.id] = alias
        }
        for state in all { placeArrows(of: state) }
    }

    static func isPlainName(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, !keywords.contains(id.lowercased()) else { return false }
        func letter(_ s: Unicode.Scalar) -> Bool { (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_" }
        return letter(first) && id.unicodeScalars.allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") }
    }

    func name(_ id: String) -> String { aliases[id] ?? id }

    /// Label text with Mermaid's entity codes for the characters its parser or HTML would take,
    /// on one line: a transition's text ends at `:`, `;` or a line break, `#` starts a comment
    /// or a code, `<`, `>` and `"` are HTML. Mermaid replaces the codes with placeholders before
    /// it parses and puts the characters back when it draws. The `o` of `direction` is a code
    /// too: the grammar's lexer reads any line containing `direction` followed by space and
    /// `TB`, `BT`, `RL` or `LR` (in any case) as a direction statement, dropping the arrow.
    static func label(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "#": result += "#35;"
            case ";": result += "#59;"
            case ":": result += "#58;"
            case "<": result += "#lt;"
            case ">": result += "#gt;"
            case "\"": result += "#quot;"
            case "\n", "\r\n", "\r": result += " "
            case "o", "O":
                result.append(character)
                if result.suffix(8).lowercased() == "directio" {
                    result.removeLast()
                    result += character == "o" ? "#111;" : "#79;"
                }
            default: result.append(character)
            }
        }
        return result
    }

    mutating func line(_ depth: Int, _ content: String) {
        text += ExportIndentation.prefix(depth, unit: "    ") + content + "\n"
    }

    private func parent(_ id: String) -> String? { parents[id] ?? nil }

    /// The deepest state that is `a` or an ancestor of it and also `b` or an ancestor of `b`;
    /// `nil` when they share none (the diagram itself). O(depth).
    private func lowestCommon(_ a: String?, _ b: String) -> String? {
        guard var x = a else { return nil }
        var y = b
        var dx = depths[x] ?? 0, dy = depths[y] ?? 0
        while dx > dy { guard let p = parent(x) else { return nil }; x = p; dx -= 1 }
        while dy > dx { guard let p = parent(y) else { return nil }; y = p; dy -= 1 }
        while x != y {
            guard let px = parent(x), let py = parent(y) else { return nil }
            x = px
            y = py
        }
        return x
    }

    /// Files each arrow of `state` under the innermost non-parallel block that is a proper
    /// ancestor of its source and of every target: above the ends' lowest common ancestor (its
    /// parent when that is one of the ends), skipping parallel states. O(ends × depth).
    private mutating func placeArrows(of state: ChartDiagram.State) {
        for transition in state.transitions {
            let ends = [state.id] + transition.targets
            var common: String? = state.id
            for end in transition.targets { common = lowestCommon(common, end) }
            var block = common
            if let candidate = block, ends.contains(candidate) { block = parent(candidate) }
            while let candidate = block, kinds[candidate] == .parallel { block = parent(candidate) }
            let label = transition.label.isEmpty ? "" : " : " + Self.label(transition.label)
            let targets = transition.targets.isEmpty ? [state.id] : transition.targets
            for target in targets {
                arrows[block, default: []].append("\(name(state.id)) --> \(name(target))\(label)")
            }
        }
    }

    /// The body of a block: the default entry, each child's declaration, the block's arrows.
    mutating func block(_ id: String?, initial: [String], children: [ChartDiagram.State], depth: Int) {
        if id.map({ kinds[$0] }) != .parallel {
            for target in ChartDiagram.defaultTargets(initial: initial, children: children) {
                line(depth, "[*] --> \(name(target))")
            }
        }
        for (position, child) in children.enumerated() {
            if position > 0, let id, kinds[id] == .parallel { line(depth, "--") }
            declare(child, depth: depth)
        }
        for arrow in arrows[id] ?? [] { line(depth, arrow) }
    }

    mutating func declare(_ state: ChartDiagram.State, depth: Int) {
        let name = self.name(state.id)
        switch state.kind {
        case .history(let type):
            line(depth, "state \"\(type == .deep ? "H*" : "H")\" as \(name)")
            return
        case .final, .state, .parallel:
            if aliases[state.id] != nil { line(depth, "state \"\(Self.label(state.id))\" as \(name)") }
        }
        if state.children.isEmpty {
            if aliases[state.id] == nil { line(depth, name) }
        } else {
            line(depth, "state \(name) {")
            block(state.id, initial: state.initial, children: state.children, depth: depth + 1)
            line(depth, "}")
        }
        if state.kind == .final { line(depth, "\(name) --> [*]") }
    }
}
