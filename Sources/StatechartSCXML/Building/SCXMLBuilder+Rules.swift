// Which attributes and children each SCXML element allows.

extension SCXMLBuilder {
    static let executableElements = ["raise", "if", "foreach", "log", "assign", "script", "send", "cancel"]

    /// Every element of SCXML 1.0.
    static let knownElements: Set<String> = [
        "scxml", "state", "parallel", "final", "initial", "history", "transition", "onentry", "onexit",
        "datamodel", "data", "donedata", "content", "param", "invoke", "finalize", "raise", "if", "elseif",
        "else", "foreach", "log", "assign", "script", "send", "cancel",
    ]

    static let scxmlEventProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    // The allowed attributes and children of each element.
    static let documentAttributes = SCXMLNameList([.initial, .name, .version, .datamodel, .binding])
    static let documentChildren = SCXMLNameList([.state, .parallel, .final, .datamodel, .script])
    static let stateAttributes = SCXMLNameList([.id, .initial])
    static let stateChildren = SCXMLNameList([
        .onentry, .onexit, .transition, .initial, .state, .parallel, .final, .history, .datamodel, .invoke,
    ])
    static let parallelAttributes = SCXMLNameList([.id])
    static let parallelChildren = SCXMLNameList([
        .onentry, .onexit, .transition, .state, .parallel, .history, .datamodel, .invoke,
    ])
    static let finalAttributes = SCXMLNameList([.id])
    static let finalChildren = SCXMLNameList([.onentry, .onexit, .donedata])
    static let historyAttributes = SCXMLNameList([.id, .type])
    static let historyChildren = SCXMLNameList([.transition])
    static let transitionAttributes = SCXMLNameList([.event, .cond, .target, .type])
    static let transitionChildren = SCXMLNameList([.transition])
    static let noNames = SCXMLNameList([])
    static let dataChildren = SCXMLNameList([.data])
    static let dataAttributes = SCXMLNameList([.id, .src, .expr])
    static let exprAttributes = SCXMLNameList([.expr])
    static let paramAttributes = SCXMLNameList([.name, .expr, .location])
    static let doneDataChildren = SCXMLNameList([.content, .param])
    static let invokeAttributes = SCXMLNameList([
        .type, .typeexpr, .src, .srcexpr, .id, .idlocation, .namelist, .autoforward,
    ])
    static let invokeChildren = SCXMLNameList([.param, .finalize, .content])
    static let eventAttributes = SCXMLNameList([.event])
    static let foreachAttributes = SCXMLNameList([.array, .item, .index])
    static let logAttributes = SCXMLNameList([.label, .expr])
    static let assignAttributes = SCXMLNameList([.location, .expr])
    static let cancelAttributes = SCXMLNameList([.sendid, .sendidexpr])
    static let condAttributes = SCXMLNameList([.cond])
    static let srcAttributes = SCXMLNameList([.src])
    static let sendAttributes = SCXMLNameList([
        .event, .eventexpr, .target, .targetexpr, .type, .typeexpr, .id, .idlocation, .delay, .delayexpr, .namelist,
    ])
    static let sendChildren = SCXMLNameList([.param, .content])
    static let executableContent = SCXMLNameList([.raise, .if, .foreach, .log, .assign, .script, .send, .cancel])
}
