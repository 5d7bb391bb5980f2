import StatechartSCXML

/// Conditions and `<assign>`s prepared once per session (``SCXMLDatamodel/prepareCondition(_:)``):
/// a handle is an index into ``ECMAScriptDatamodel/prepared``, whose entry holds the engine's id of
/// the compiled source, so an evaluation calls the function without looking its text up. The
/// texts stay in the entry: errors name them as the evaluation by text does, and a source the
/// engine forgot (its table of compiled sources starts over past its bound) is compiled again.
extension ECMAScriptDatamodel {
    struct PreparedSource {
        var kind: ECMAScriptEngine.SourceKind
        /// The expression, or an assignment's location.
        var source: String
        /// An assignment's expression; empty otherwise.
        var expression: String
        var id: Int32
        /// ``ECMAScriptEngine/compiledGeneration`` when `id` was obtained.
        var generation: Int

        /// What errors name (as ``ECMAScriptEngine/evaluateBoolean(_:)`` and
        /// ``ECMAScriptEngine/assign(location:expression:)`` name them).
        var naming: String { kind == .assignment ? "\(source) = \(expression)" : source }
    }

    /// Compiled now (not by text at each evaluation); `nil` for a syntax error, which each
    /// evaluation by text then reports.
    public func prepareCondition(_ expression: String) -> Int? {
        prepare(.expression, Self.expression(expression), "")
    }

    public func evaluateCondition(prepared handle: Int) throws -> Bool {
        try engine.evaluateBoolean(compiled: compiledID(handle), source: prepared[handle].naming)
    }

    /// Prepares an assignment of an `expr`; inline content and a missing value are run by
    /// ``assign(_:_:)``.
    public func prepareAssignment(_ assign: SCXMLAssign) -> Int? {
        guard case .expression(let expression)? = assign.value else { return nil }
        return prepare(.assignment, assign.location, Self.expression(expression))
    }

    public func assign(prepared handle: Int) throws {
        try engine.assign(compiled: compiledID(handle), naming: prepared[handle].naming)
    }

    private func prepare(_ kind: ECMAScriptEngine.SourceKind, _ source: String, _ expression: String) -> Int? {
        guard let id = try? engine.compiled(source, as: kind, expression: expression) else { return nil }
        prepared.append(PreparedSource(kind: kind, source: source, expression: expression, id: id,
                                       generation: engine.compiledGeneration))
        return prepared.count - 1
    }

    /// The engine's id of the prepared source `handle`, compiled again if the engine forgot it.
    private func compiledID(_ handle: Int) throws(ScriptError) -> Int32 {
        if prepared[handle].generation == engine.compiledGeneration { return prepared[handle].id }
        let entry = prepared[handle]
        let id = try engine.compiled(entry.source, as: entry.kind, expression: entry.expression,
                                     naming: entry.naming)
        prepared[handle].id = id
        prepared[handle].generation = engine.compiledGeneration
        return id
    }
}
