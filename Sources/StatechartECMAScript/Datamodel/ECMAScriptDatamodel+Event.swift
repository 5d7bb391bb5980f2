import CDuktapeShim
import Statechart
import StatechartSCXML

extension ECMAScriptDatamodel {
    /// Binds `_event` without running any script: the fields are copied into the engine, which
    /// builds the object the first time a script reads `_event` (see `dukshim_event_begin`).
    /// XML data becomes a DOM tree, built here by the DOM prelude (a rare case, so it stays eager).
    public func setEvent(_ event: SCXMLEvent) {
        engine.bindEvent(event.name, type: event.type.rawValue, sendID: event.sendID, origin: event.origin,
                         originType: event.originType, invokeID: event.invokeID, raw: event.raw)
        guard let data = event.data else { return }
        if event.dataIsXML, case .string(let markup) = data, let tree = SCXMLMarkup.documentTree(of: markup) {
            // Data the engine cannot hold (nested too deeply, too large) stays undefined.
            if (try? engine.store(evaluating: domSource(tree), as: Key.eventData)) != nil {
                engine.bindEventData(storedValue: Key.eventData)
            }
        } else {
            engine.bindEventData(data)
        }
    }

    /// Binds `_event` to a name sent from outside: type `external`, every other field undefined.
    public func setExternalEvent(named name: String) {
        engine.bindExternalEvent(name)
    }
}

extension ECMAScriptEngine {
    /// Defines `_event` as the read-only variable ``bindEvent(_:type:sendID:origin:originType:invokeID:raw:)``
    /// sets; `undefined` until the first binding.
    func installEventBinding() throws(ScriptError) {
        try check(dukshim_event_install(handle), source: "_event")
    }

    /// Makes the named fields the next value of `_event` (absent ones read as `undefined`);
    /// its `data` is undefined until ``bindEventData(_:)``. No script runs.
    func bindEvent(_ name: String, type: String, sendID: String?, origin: String?, originType: String?,
                   invokeID: String?, raw: String?) {
        dukshim_event_begin(handle)
        setEventField(DUKSHIM_EVENT_NAME, name)
        setEventField(DUKSHIM_EVENT_TYPE, type)
        setEventField(DUKSHIM_EVENT_SENDID, sendID)
        setEventField(DUKSHIM_EVENT_ORIGIN, origin)
        setEventField(DUKSHIM_EVENT_ORIGINTYPE, originType)
        setEventField(DUKSHIM_EVENT_INVOKEID, invokeID)
        setEventField(DUKSHIM_EVENT_RAW, raw)
    }

    /// ``bindEvent(_:type:sendID:origin:originType:invokeID:raw:)`` of a name sent from outside
    /// (type `external`, no other field), in one call.
    func bindExternalEvent(_ name: String) {
        _ = withUTF8(name) { dukshim_event_bind_external(handle, $0, $1) }
    }

    private func setEventField(_ field: Int32, _ text: String?) {
        guard let text else { return }
        _ = withUTF8(text) { dukshim_event_set_field(handle, field, $0, $1) }
    }

    /// The bound event's `data`, converted when a script first reads `_event`.
    func bindEventData(_ data: DataValue) {
        _ = withEncoded(data) { dukshim_event_set_data(handle, DUKSHIM_VALUE_DATA, $0, $1) }
    }

    /// The bound event's `data`: the value stored under `key` (``store(_:as:)``).
    func bindEventData(storedValue key: String) {
        _ = withUTF8(key) { dukshim_event_set_data(handle, DUKSHIM_VALUE_STORED, $0, $1) }
    }
}
