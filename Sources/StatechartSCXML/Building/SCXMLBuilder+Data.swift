// Building <datamodel>, <data>, <content>, <param> and <donedata>.

extension SCXMLBuilder {
    mutating func buildDataModel(_ element: Element) -> SCXMLDataModel {
        _ = attributes(of: element, allowed: SCXMLName.datamodel.rule.attributes)
        var datamodel = SCXMLDataModel(sourceLocation: location(element))
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            if tree.code(child) == .data {
                if let data = buildData(child) { datamodel.data.append(data) }
            } else {
                misplaced(child, in: element, allowed: SCXMLName.datamodel.rule.children)
            }
        }
        pop(children)
        return datamodel
    }

    mutating func buildData(_ element: Element) -> SCXMLData? {
        let values = attributes(of: element, allowed: SCXMLName.data.rule.attributes)
        let id = required(.id, values, element)
        let inline = inlineContent(of: element)
        var sources: [String] = []
        if values[.expr] != nil { sources.append("'expr'") }
        if values[.src] != nil { sources.append("'src'") }
        if inline != nil { sources.append("inline content") }
        if sources.count > 1 {
            report(
                element,
                "\(describe(element)) can have only one of 'expr', 'src' or inline content; found "
                    + sources.joined(separator: " and "))
        }
        guard let id else { return nil }
        let value: SCXMLData.Value? =
            if let expr = values[.expr] { .expression(expr) } else if let src = values[.src] { .src(src) } else {
                inline.map { .inline($0) }
            }
        return SCXMLData(sourceLocation: location(element), id: id, value: value)
    }

    mutating func buildContent(_ element: Element, inInvoke: Bool) -> SCXMLContent {
        let values = attributes(of: element, allowed: SCXMLName.content.rule.attributes)
        var inline = inlineContent(of: element)
        if inInvoke, case .markup(let markup)? = inline {
            let elements = tree.elementChildren(element)
            if elements.count == 1, let root = elements.first, tree.code(root) == .scxml,
                tree.isSCXML(root), tree.isTextBlank(element)
            {
                let nested = buildDocument(root)
                inline = .document(nested, markup: markup)
            }
        }
        let expr = values[.expr]
        if expr != nil && inline != nil {
            report(element, "<content> cannot have both an 'expr' attribute and child content; use one of them")
        }
        let value: SCXMLContent.Value? =
            if let expr { .expression(expr) } else { inline.map { .inline($0) } }
        return SCXMLContent(sourceLocation: location(element), value: value)
    }

    mutating func buildParam(_ element: Element) -> SCXMLParam? {
        let values = attributes(of: element, allowed: SCXMLName.param.rule.attributes)
        expectNoChildren(element)
        let name = required(.name, values, element)
        let expr = values[.expr]
        let location = values[.location]
        if expr != nil && location != nil { reportBoth("expr", "location", element) }
        guard let name else { return nil }
        let value: SCXMLParam.Value? =
            if let expr { .expression(expr) } else { location.map { .location($0) } }
        return SCXMLParam(sourceLocation: self.location(element), name: name, value: value)
    }

    mutating func buildDoneData(_ element: Element) -> SCXMLDoneData {
        _ = attributes(of: element, allowed: SCXMLName.donedata.rule.attributes)
        var doneData = SCXMLDoneData(sourceLocation: location(element))
        var seenContent = false
        let children = scxmlChildren(of: element)
        for index in children {
            let child = child(index)
            switch tree.code(child) {
            case .content:
                let content = buildContent(child, inInvoke: false)
                if once(child, in: element, seen: &seenContent) { doneData.content = content }
            case .param:
                if let param = buildParam(child) { doneData.params.append(param) }
            default:
                misplaced(child, in: element, allowed: SCXMLName.donedata.rule.children)
            }
        }
        pop(children)
        if doneData.content != nil && !doneData.params.isEmpty {
            report(element, "<donedata> cannot have both a <content> child and <param> children; use one of them")
        }
        return doneData
    }
}
