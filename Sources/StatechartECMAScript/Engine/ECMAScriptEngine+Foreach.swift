import CDuktapeShim
import Statechart

/// `<foreach array item index>` support (SCXML 4.6): the array expression is evaluated once
/// and iterated over a shallow copy, so the loop body may change the original array without
/// affecting the iteration.
extension ECMAScriptEngine {
    /// The items of the array `arrayExpression` evaluates to, converted to data.
    ///
    /// ```swift
    /// try engine.foreachItems("[1, 'two', {three: 3}]")   // [.number(1), .string("two"), .object(...)]
    /// ```
    /// - Throws: ``ScriptError`` (`TypeError`) when the value is not an array or an item is
    ///   not convertible (use ``foreach(array:item:index:body:)`` for arbitrary items).
    public func foreachItems(_ arrayExpression: String) throws(ScriptError) -> [DataValue] {
        let key = "\u{0}foreachItems"
        _ = try storeForeachCopy(of: arrayExpression, as: key)
        defer { try? removeStoredValue(key) }
        guard case .array(let items) = try storedValue(key) else {
            throw ScriptError(name: "TypeError", message: "foreach: the array expression did not produce an array",
                              expression: arrayExpression)
        }
        return items
    }

    /// Evaluates `arrayExpression`, keeps a shallow copy of the array under `key` (items are
    /// kept as they are: objects by reference, functions included) and returns its length.
    ///
    /// ```swift
    /// let count = try engine.storeForeachCopy(of: "handlers", as: "loop")
    /// for index in 0..<count { try engine.assign(location: "handler", storedValue: "loop", element: index) }
    /// ```
    /// - Throws: ``ScriptError`` (`TypeError`) when the value is not an array.
    public func storeForeachCopy(of arrayExpression: String, as key: String) throws(ScriptError) -> Int {
        var count: Int64 = 0
        let array = try compiled(arrayExpression, as: .expression)
        let status = withUTF8(key) { dukshim_store_array_copy(handle, $0, $1, array, &count) }
        try check(status, source: arrayExpression)
        return Int(count)
    }

    /// Runs a whole `<foreach>`: for each item of a shallow copy of the array, assigns the
    /// item to `item` and its index to `index` (declaring them first when they are new, as the
    /// ECMAScript datamodel requires), then calls `body`. `item` and `index` must be variable
    /// names (identifiers that are not reserved words), checked before anything runs.
    ///
    /// ```swift
    /// try engine.declare("sum", value: .number(0))
    /// try engine.foreach(array: "[1, 2, 3]", item: "n", index: "i") {
    ///     try engine.assign(location: "sum", expression: "sum + n")
    /// }
    /// try engine.evaluate("sum")                   // .number(6)
    /// ```
    /// - Throws: ``ScriptError`` when `item` or `index` is not a variable name (`SyntaxError`,
    ///   even for an empty array), when the array expression fails or is not an array; whatever `body` throws, unchanged (ending the loop).
    public func foreach(
        array arrayExpression: String,
        item: String,
        index: String? = nil,
        body: () throws -> Void
    ) throws {
        for name in [item] + (index.map { [$0] } ?? []) where !Self.isAssignableIdentifier(name) {
            throw ScriptError(name: "SyntaxError", message: "foreach: '\(name)' is not a valid variable name",
                              expression: name)
        }
        let key = "\u{0}foreach\(foreachDepth)"
        let count = try storeForeachCopy(of: arrayExpression, as: key)
        foreachDepth += 1
        defer {
            foreachDepth -= 1
            try? removeStoredValue(key)
        }
        try declareIfNeeded(item)
        if let index {
            try declareIfNeeded(index)
        }
        for position in 0..<count {
            // Resolved each step: the body may compile enough new texts to renew the table.
            try reserveCompiledRoom(2)
            let itemTarget = try compiled(item, as: .location)
            let indexTarget = try index.map { name throws(ScriptError) in try compiled(name, as: .location) } ?? -1
            var failedPart: Int32 = 0
            let status = withUTF8(key) {
                dukshim_foreach_step(handle, $0, $1, position, itemTarget, indexTarget, &failedPart)
            }
            try check(status, source: failedPart == 0 ? item : index ?? item)
            try body()
        }
    }

    private func declareIfNeeded(_ name: String) throws(ScriptError) {
        if !isDeclared(name) {
            try declare(name)
        }
    }

    /// Words that cannot be assigned to in strict-mode code (ES5.1 7.6.1, plus `eval` and
    /// `arguments`).
    private static let reservedWords: Set<String> = [
        "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
        "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in",
        "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof",
        "var", "void", "while", "with", "implements", "interface", "let", "package", "private", "protected",
        "public", "static", "yield", "eval", "arguments",
    ]

    /// A variable name `<foreach>` may use: an identifier (letters, decimal digits, `_`, `$`;
    /// not starting with a digit) that is not a reserved word. Member paths are not names.
    static func isAssignableIdentifier(_ name: String) -> Bool {
        func isStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic
        }
        func isPart(_ scalar: Unicode.Scalar) -> Bool {
            isStart(scalar) || scalar.properties.generalCategory == .decimalNumber
        }
        guard let first = name.unicodeScalars.first, isStart(first),
              name.unicodeScalars.dropFirst().allSatisfy(isPart) else { return false }
        return !reservedWords.contains(name)
    }
}
