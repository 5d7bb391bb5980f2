/// Visits every element of a document that a datamodel may have to support, in document order:
/// data, scripts, conditions, executable content (nested content included), done data, invokes.
/// The states are read in place (a state is never copied), and a state with nothing to visit
/// costs a few field reads.
package enum SCXMLDocumentWalker {
    package enum Item {
        case data(SCXMLData)
        case script(SCXMLScript)
        case condition(String, SCXMLSourceLocation, element: String)
        case executable(SCXMLExecutable)
        case doneData(SCXMLDoneData)
        case invoke(SCXMLInvoke)
    }

    package static func visit(_ document: SCXMLDocument, _ body: (Item) -> Void) {
        for data in document.datamodelElement?.data ?? [] { body(.data(data)) }
        if let script = document.script { body(.script(script)) }
        visit(document.states, body)
    }

    /// The states and their descendants, parents before children.
    private static func visit(_ states: [SCXMLState], _ body: (Item) -> Void) {
        for index in states.indices {
            visit(states, index, body)
            if !states[index].children.isEmpty { visit(states[index].children, body) }
        }
    }

    private static func visit(_ states: [SCXMLState], _ index: Int, _ body: (Item) -> Void) {
        if let data = states[index].datamodelElement?.data {
            for item in data { body(.data(item)) }
        }
        for block in states[index].onEntry { visit(block.actions, body) }
        for block in states[index].onExit { visit(block.actions, body) }
        if let initial = states[index].initialElement { visit(initial.transition.actions, body) }
        let transitions = states[index].transitions
        for position in transitions.indices {
            if let cond = transitions[position].cond {
                body(.condition(cond, transitions[position].sourceLocation, element: "transition"))
            }
            if !transitions[position].actions.isEmpty { visit(transitions[position].actions, body) }
        }
        for invoke in states[index].invokes {
            body(.invoke(invoke))
            if let finalize = invoke.finalize { visit(finalize.actions, body) }
        }
        if let done = states[index].doneData { body(.doneData(done)) }
    }

    private static func visit(_ actions: [SCXMLExecutable], _ body: (Item) -> Void) {
        for action in actions {
            body(.executable(action))
            switch action {
            case .if(let node):
                for branch in node.branches {
                    if let cond = branch.cond { body(.condition(cond, branch.sourceLocation, element: "if")) }
                    visit(branch.actions, body)
                }
            case .foreach(let node):
                visit(node.actions, body)
            default:
                break
            }
        }
    }
}
