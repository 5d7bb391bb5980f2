// Reading an element's attributes: allowed names, required values, pairs of which one may be
// present, and whitespace-separated token lists.

extension SCXMLBuilder {
    /// An element's SCXML attributes: those without a namespace that the element allows.
    struct AttributeValues {
        let tree: XMLTreeView
        let first: Int32
        let count: Int32
        let allowed: UInt64

        /// The index in the tree of the attribute `name`, if the element has it and allows it.
        @inline(__always)
        func index(of name: SCXMLName) -> Int? {
            guard allowed & name.bit != 0 else { return nil }
            var attribute = Int(first)
            let end = attribute + Int(count)
            while attribute < end {
                if tree.attributeCode(attribute) == name && tree.attributes[attribute].namespace < 0 { return attribute }
                attribute += 1
            }
            return nil
        }

        subscript(name: SCXMLName) -> String? {
            index(of: name).map { tree.attributeValue($0) }
        }

        /// Whether the attribute is present.
        func has(_ name: SCXMLName) -> Bool { index(of: name) != nil }
    }

    /// The value of attribute `name` split at whitespace (``tokens(_:)``), and whether the
    /// attribute is present. A value without separators is one token, and the arrays of equal
    /// values are one array (an event or a state named again shares it).
    mutating func tokens(_ values: AttributeValues, _ name: SCXMLName) -> (tokens: [String], present: Bool) {
        let list = tokenList(values, name)
        return (list.tokens, list.present)
    }

    /// ``tokens(_:_:)`` with the ``TokenCache`` entry of a single-token value (`nil` for a
    /// value with separators or non-ASCII bytes, or an absent or empty attribute).
    mutating func tokenList(_ values: AttributeValues, _ name: SCXMLName) -> (tokens: [String], present: Bool, cached: Int?) {
        guard let attribute = values.index(of: name) else { return ([], false, nil) }
        let record = tree.attributes[attribute]
        let start = Int(record.valueStart), count = Int(record.valueCount)
        if count == 0 { return ([], true, nil) }
        // ASCII without separators or "\r" (nearly every value): one token, maybe seen before.
        let base = tree.bytes.baseAddress! + start
        var index = 0
        while index < count {
            let byte = base[index]
            if byte >= 0x80 || byte <= 0x20 { break }
            index += 1
        }
        if index == count {
            let entry = tokenCache.entry(base, count: count)
            return (tokenCache.tokens(entry), true, entry)
        }
        return (Self.tokens(tree.attributeValue(attribute)), true, nil)
    }

    /// The element's attributes without a namespace, reporting those SCXML does not define for it.
    /// Attributes in other namespaces (`xml:lang`, extensions) are ignored.
    mutating func attributes(of element: Element, allowed: SCXMLNameList) -> AttributeValues {
        let range = tree.attributeRange(element)
        for attribute in range where tree.attributes[attribute].namespace < 0 {
            if allowed.contains(tree.attributeCode(attribute)) { continue }
            let name = tree.strings[Int(tree.attributes[attribute].name)]
            let elementName = tree.localName(element)
            if elementName == "parallel" && name == "initial" {
                report(
                    element,
                    "<parallel> cannot have an 'initial' attribute: all children of a parallel state are entered "
                        + "together; remove it")
            } else if allowed.isEmpty {
                report(element, "<\(elementName)> takes no attributes; remove '\(name)'")
            } else {
                var message = "<\(elementName)> has no attribute '\(name)'"
                if let suggestion = Suggestions.closest(to: name, in: allowed.names) {
                    message += " (did you mean '\(suggestion)'?)"
                }
                message += "; its attributes are \(Suggestions.quotedList(allowed.names))"
                report(element, message)
            }
        }
        return AttributeValues(
            tree: tree, first: Int32(range.lowerBound), count: Int32(range.count), allowed: allowed.mask)
    }

    /// A required attribute's value, or `nil` after reporting it missing or empty.
    mutating func required(_ name: SCXMLName, _ values: AttributeValues, _ element: Element) -> String? {
        guard let value = values[name] else {
            report(element, "<\(tree.localName(element))> is missing the required attribute '\(name.text)'")
            return nil
        }
        guard !value.isBlank else {
            report(element, "<\(tree.localName(element))> has an empty '\(name.text)' attribute; give it a value")
            return nil
        }
        return value
    }

    /// A pair such as `event`/`eventexpr`, of which at most one may be present.
    mutating func valueSource(
        _ literal: SCXMLName, _ expression: SCXMLName, _ values: AttributeValues, _ element: Element
    ) -> SCXMLValueSource? {
        switch (values[literal], values[expression]) {
        case (let value?, _?):
            reportBoth(literal.text, expression.text, element)
            return .literal(value)
        case (let value?, nil): return .literal(value)
        case (nil, let value?): return .expression(value)
        case (nil, nil): return nil
        }
    }

    /// The `id`/`idlocation` pair of `<send>` and `<invoke>`.
    mutating func idSource(_ values: AttributeValues, _ element: Element) -> SCXMLIDSource? {
        switch (values[.id], values[.idlocation]) {
        case (let value?, _?):
            reportBoth("id", "idlocation", element)
            return .literal(value)
        case (let value?, nil): return .literal(value)
        case (nil, let value?): return .location(value)
        case (nil, nil): return nil
        }
    }

    mutating func reportBoth(_ first: String, _ second: String, _ element: Element) {
        report(element, "<\(tree.localName(element))> cannot have both '\(first)' and '\(second)'; use one of them")
    }

    /// A whitespace-separated list (`target`, `event`, `initial`, `namelist`).
    static func tokens(_ value: String?) -> [String] {
        guard let value else { return [] }
        // ASCII without "\r" (so no "\r\n" cluster): every separator character is one byte, and a
        // value without separators (nearly all of them) is its own single token.
        var separators = false
        for byte in value.utf8 {
            if byte >= 0x80 || byte == 0x0D {
                return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                    .map(String.init)
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A { separators = true }
        }
        if !separators { return value.isEmpty ? [] : [value] }
        return value.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A }).map { String(Substring($0)) }
    }
}
