/// Visits every element of a document that a datamodel may have to support, in document order:
/// data, scripts, conditions, executable content (nested content included), done data, invokes.
enum SCXMLDocumentWalker {
    enum Item {
        case data(SCXMLData)
        case script(SCXMLScript)
        case condition(String, SCXMLSourceLocation, element: String)
        case executable(SCXMLExecutable)
        case doneData(SCXMLDoneData)
        case invoke(SCXMLInvoke)
    }

    static func visit(_ document: SCXMLDocument, _ body: (Item) -> Void) {
        for data in document.datamodelElement?.data ?? [] { body(.data(data)) }
        if let script = document.script { body(.script(script)) }
        for state in document.allStates { visit(state, body) }
    }

    private static func visit(_ state: SCXMLState, _ body: (Item) -> Void) {
        for data in state.datamodelElement?.data ?? [] { body(.data(data)) }
        for block in state.onEntry + state.onExit { visit(block.actions, body) }
        if let initial = state.initialElement { visit(initial.transition.actions, body) }
        for transition in state.transitions {
            if let cond = transition.cond { body(.condition(cond, transition.sourceLocation, element: "transition")) }
            visit(transition.actions, body)
        }
        for invoke in state.invokes {
            body(.invoke(invoke))
            if let finalize = invoke.finalize { visit(finalize.actions, body) }
        }
        if let done = state.doneData { body(.doneData(done)) }
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
