// Building <invoke> and its <param>, <content> and <finalize> children.

extension SCXMLBuilder {
    mutating func buildInvoke(_ element: Element) -> SCXMLInvoke {
        let values = attributes(of: element, allowed: SCXMLName.invoke.rule.attributes)
        var invoke = SCXMLInvoke(
            sourceLocation: location(element), type: valueSource(.type, .typeexpr, values, element),
            src: valueSource(.src, .srcexpr, values, element), id: idSource(values, element),
            namelist: Self.tokens(values[.namelist]))
        if let autoforward = values[.autoforward] {
            switch autoforward {
            case "true": invoke.autoforward = true
            case "false": invoke.autoforward = false
            default: report(element, "<invoke> has autoforward '\(autoforward)'; expected 'true' or 'false'")
            }
        }
        var seenContent = false
        var seenFinalize = false
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .param:
                if let param = buildParam(child) { invoke.params.append(param) }
            case .content:
                let content = buildContent(child, inInvoke: true)
                if once(child, in: element, seen: &seenContent) { invoke.content = content }
            case .finalize:
                let block = buildBlock(child)
                if once(child, in: element, seen: &seenFinalize) { invoke.finalize = block }
            default:
                misplaced(child, in: element, allowed: SCXMLName.invoke.rule.children)
            }
        }
        pop(children)
        if invoke.content != nil, invoke.src != nil {
            let attribute = values.has(.src) ? "src" : "srcexpr"
            report(element, "<invoke> cannot have both '\(attribute)' and a <content> child; use one of them")
        }
        if !invoke.namelist.isEmpty && !invoke.params.isEmpty {
            report(element, "<invoke> cannot have both a 'namelist' attribute and <param> children; use one of them")
        }
        return invoke
    }
}
