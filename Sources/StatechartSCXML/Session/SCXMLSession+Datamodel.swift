import Statechart

// The datamodel at start-up and on entry (early and late binding), and conditions.

extension SCXMLSession {
    // MARK: - Conditions

    /// The transition condition `cond` in `slot` (``preparedConditions``), prepared by the
    /// datamodel on its first evaluation.
    func condition(_ cond: String, slot: Int, ctx: ActionContext) -> Bool {
        rememberEvent(ctx)
        do {
            let model = datamodel!
            let handle = Self.preparedHandle(&preparedConditions, slot) { model.prepareCondition(cond) }
            return try handle == Self.byText ? model.evaluateCondition(cond) : model.evaluateCondition(prepared: handle)
        } catch {
            raiseError("error.execution", "cond=\"\(cond)\": \(error)", ctx: ctx)
            return false
        }
    }

    // MARK: - Start-up and data

    /// interpret(): create the datamodel's data (all of it with early binding, the top level's
    /// with late binding, where the other states' variables are created unbound) and run the
    /// top-level script; failures raise error.execution. Values the invoking session passed
    /// replace the initial values of top-level `<data>` with the same id.
    func startUp(ctx: ActionContext) {
        let topLevel = document.datamodelElement?.data ?? []
        initialize(topLevel, ctx: ctx, overrides: invokeValues)
        let nested = document.allStates.compactMap(\.datamodelElement).map(\.data)
        if document.binding == .early {
            for data in nested { initialize(data, ctx: ctx) }
        } else {
            do { try datamodel.declare(nested.flatMap { $0 }) } catch { raiseError("error.execution", "\(error)", ctx: ctx) }
        }
        if let script = document.script {
            do { try datamodel.runScript(script) } catch { raiseError("error.execution", "\(error)", ctx: ctx) }
        }
    }

    /// Creates `data` one element at a time, so an error leaves the others created.
    func initialize(_ data: [SCXMLData], ctx: ActionContext, overrides: [String: DataValue] = [:]) {
        for item in data {
            do {
                if let value = overrides[item.id] {
                    var unbound = item
                    unbound.value = nil
                    try datamodel.initialize([unbound])
                    try datamodel.store(value, at: item.id)
                } else {
                    try datamodel.initialize([item])
                }
            } catch {
                raiseError("error.execution", "<data id=\"\(item.id)\"> at \(item.sourceLocation): \(error)", ctx: ctx)
            }
        }
    }

    /// Late binding: a state's `<data>` is created when the state is first entered.
    func initializeLateData(of state: SCXMLState, ctx: ActionContext) {
        guard let data = state.datamodelElement?.data, !data.isEmpty, !initializedStates.contains(state.id) else { return }
        initializedStates.insert(state.id)
        initialize(data, ctx: ctx)
    }
}
