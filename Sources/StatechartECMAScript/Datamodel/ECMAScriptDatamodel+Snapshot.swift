import Statechart
import StatechartSCXML

/// The variables of an ECMAScript session in an ``SCXMLSnapshot``: every global the document
/// made (`<data>`, `var` in a `<script>`, assignments to new globals), with its value as data.
///
/// What a snapshot holds is what JSON represents, so a restored variable is the same value:
/// `null`, booleans, finite numbers, strings, arrays and plain objects (`{}` literals, JSON).
/// A variable holding nothing (`undefined`) is kept as such. Anything else is refused with
/// ``SCXMLSnapshotError/unrepresentableValue(variable:path:reason:)`` naming the variable and
/// the path inside it, rather than restored as something else: a function, `undefined` or a
/// hole inside an array or object, `NaN` and `Infinity`, objects with a prototype of their own
/// (`Date`, `RegExp`, DOM documents from XML `<data>`), and an object reached twice (a cycle,
/// or one object shared by two places, which would come back as two copies).
extension ECMAScriptDatamodel: SCXMLSnapshottingDatamodel {
    /// The script that lists and checks the document's globals. It returns
    /// `{problem: [variable, path, reason]}` or `{variables: [{name, value?}]}`, `value` left
    /// out for `undefined` (which the value coding leaves out of objects).
    private static func exportScript(builtIns: [String]) -> String {
        let names = JavaScriptLiteral.source(.array(builtIns.map(DataValue.string)))
        return """
        (function (global, builtIns) {
            var seen = [], seenPaths = [];
            function problem(value, path) {
                switch (typeof value) {
                case 'string': case 'boolean': return null;
                case 'number': return isFinite(value) ? null : [path, String(value) + ', which JSON cannot represent'];
                case 'undefined': return [path, 'undefined, which JSON cannot represent inside an array or object'];
                case 'function': return [path, 'a function'];
                }
                if (value === null) return null;
                var index = seen.indexOf(value);
                if (index >= 0) {
                    return [path, 'the same object as ' + seenPaths[index] + ' (a cycle or a shared object would not come back as one object)'];
                }
                seen.push(value); seenPaths.push(path);
                var found, i;
                if (Array.isArray(value)) {
                    for (i = 0; i < value.length; i++) {
                        if (!(i in value)) return [path + '[' + i + ']', 'a hole in the array, which JSON cannot represent'];
                        if ((found = problem(value[i], path + '[' + i + ']'))) return found;
                    }
                    return null;
                }
                var prototype = Object.getPrototypeOf(value);
                if (prototype !== Object.prototype && prototype !== null) {
                    var kind = Object.prototype.toString.call(value).slice(8, -1);
                    return [path, kind === 'Object' ? 'an object with a prototype of its own (made by new, or a DOM node), not plain data'
                        : 'a ' + kind + ' object, not plain data'];
                }
                var keys = Object.keys(value);
                for (i = 0; i < keys.length; i++) {
                    var member = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(keys[i]) ? path + '.' + keys[i] : path + '[' + JSON.stringify(keys[i]) + ']';
                    if ((found = problem(value[keys[i]], member))) return found;
                }
                return null;
            }
            var names = Object.getOwnPropertyNames(global).filter(function (name) { return builtIns.indexOf(name) < 0; }).sort();
            var variables = [];
            for (var n = 0; n < names.length; n++) {
                var value = global[names[n]];
                if (value === undefined) { variables.push({ name: names[n] }); continue; }
                var found = problem(value, names[n]);
                if (found) return { problem: [names[n], found[0], found[1]] };
                variables.push({ name: names[n], value: value });
            }
            return { variables: variables };
        })(this, \(names))
        """
    }

    static func globalNames(of engine: ECMAScriptEngine) throws -> [String] {
        guard case .array(let names) = try engine.evaluate("Object.getOwnPropertyNames(this)") else { return [] }
        return names.compactMap { if case .string(let name) = $0 { name } else { nil } }
    }

    public func snapshotVariables() throws -> [SCXMLSnapshot.Variable] {
        let result = try engine.evaluate(Self.exportScript(builtIns: builtInGlobals))
        guard case .object(let fields) = result else { throw SCXMLSnapshotError.malformed("the variable export returned \(result)") }
        if case .array(let parts)? = fields["problem"], parts.count == 3,
           case .string(let variable) = parts[0], case .string(let path) = parts[1], case .string(let reason) = parts[2] {
            throw SCXMLSnapshotError.unrepresentableValue(variable: variable, path: path, reason: reason)
        }
        guard case .array(let variables)? = fields["variables"] else {
            throw SCXMLSnapshotError.malformed("the variable export returned \(result)")
        }
        return variables.compactMap { item in
            guard case .object(let variable) = item, case .string(let name)? = variable["name"] else { return nil }
            return SCXMLSnapshot.Variable(name: name, value: variable["value"])
        }
    }

    public func restoreVariables(_ variables: [SCXMLSnapshot.Variable]) throws {
        for variable in variables {
            do {
                if let value = variable.value {
                    try engine.declare(variable.name, value: value)
                } else {
                    try engine.declare(variable.name, expression: "undefined")
                }
            } catch {
                throw SCXMLSnapshotError.malformed("variable '\(variable.name)' cannot be restored: \(error)")
            }
        }
    }
}
