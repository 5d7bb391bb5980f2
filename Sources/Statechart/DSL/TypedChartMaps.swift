import CStateCore

/// The two-way maps between a typed chart's values and the compiled chart's indices and ids.
///
/// Filled while ``TypedChart`` assembles and compiles the chart, read-only afterwards (hence
/// `@unchecked Sendable`). Actions capture this object rather than the chart, so the compiled
/// chart (which owns the actions) and the maps form no reference cycle. Its properties skip
/// the dynamic exclusivity checks: they are written only before linking, read-only after, and
/// guards read them on every event.
@usableFromInline
final class TypedChartMaps<State: Hashable & Sendable, Event: ChartEvent>: @unchecked Sendable {
    struct NameEntry {
        var id: UInt32
        var name: String
    }

    // States
    @exclusivity(unchecked) private(set) var stateIDs: [State: String] = [:]
    @exclusivity(unchecked) private(set) var statesByID: [String: State] = [:]
    @usableFromInline @exclusivity(unchecked) var statesByIndex: [State?] = []
    @usableFromInline @exclusivity(unchecked) private(set) var stateIndex: [State: Int] = [:]
    /// Registered states by their bytes (trivially copyable states): `index(of:)` without hashing.
    @usableFromInline @exclusivity(unchecked) private(set) var stateKeys = ByteKeyTable.disabled

    // Events
    @exclusivity(unchecked) private(set) var names: [Event.Name: NameEntry] = [:]
    /// Registered names by the bytes of `Event.Name` (payload events' fast lookup).
    @exclusivity(unchecked) private(set) var nameKeys = ByteKeyTable.disabled
    /// Registered events by the bytes of `Event` when events are their own names.
    @exclusivity(unchecked) private(set) var eventKeys = ByteKeyTable.disabled
    @usableFromInline @exclusivity(unchecked) var eventByCoreID: [Event?] = []
    @exclusivity(unchecked) private(set) var eventByName: [String: Event] = [:]
    @exclusivity(unchecked) private(set) var eventNames: [String] = []

    /// What the chart's callbacks carry as their argument (``ActionContext/argument``, from their
    /// boxes): this object's address, then for a state type of at most one byte the state index
    /// of each byte value (`UInt32.max`: not a state of the chart), filled when linked. A
    /// guard's `isActive` then reads the index one load from its context (``directStateIndex(_:)``),
    /// not through this object and its table's storage: the load chain a guard's state test
    /// waits on is one link shorter.
    @usableFromInline let callbackArgument: UnsafeMutableRawPointer
    @usableFromInline static var callbackArgumentBytes: Int { 8 + 256 * MemoryLayout<UInt32>.stride }

    /// Events without payload: a registered event is recovered from its interned id alone.
    @usableFromInline let eventsAreNames = Event.Name.self == Event.self

    init() {
        callbackArgument = .allocate(byteCount: Self.callbackArgumentBytes, alignment: 8)
        (callbackArgument + 8).initializeMemory(as: UInt32.self, repeating: .max, count: 256)
        callbackArgument.storeBytes(of: Unmanaged.passUnretained(self).toOpaque(), as: UnsafeMutableRawPointer.self)
    }

    deinit { callbackArgument.deallocate() }

    /// The maps whose ``callbackArgument`` is at `argument`, unretained.
    @inlinable @inline(__always)
    static func reference(fromCallbackArgument argument: UnsafeRawPointer) -> Unmanaged<TypedChartMaps> {
        Unmanaged.fromOpaque(argument.load(as: UnsafeRawPointer.self))
    }

    /// The index of `state` read from the ``callbackArgument`` at `argument` (-1: not a state
    /// of the chart), when the state type is at most one byte and trivially copyable; nil for
    /// other state types, which ask the maps (``index(of:)``).
    @inlinable @inline(__always)
    static func directStateIndex(_ state: State, fromCallbackArgument argument: UnsafeRawPointer) -> Int? {
        guard ByteKeyTable.isDirect(State.self) else { return nil }
        let id = argument.load(fromByteOffset: 8 + 4 * Int(ByteKeyTable.bytes(of: state)), as: UInt32.self)
        return id == .max ? -1 : Int(id)
    }

    /// String-named events: any event name is an event.
    let eventsAreStrings = Event.self == String.self

    // MARK: - Assembly

    /// The chart id of `state`: `String(describing:)`, remembered so both directions agree.
    func id(of state: State) -> String {
        if let id = stateIDs[state] { return id }
        let id = String(describing: state)
        if isLinked { return id }       // read-only once shared
        stateIDs[state] = id
        if statesByID[id] == nil { statesByID[id] = state }
        return id
    }

    /// The chart name of an event name: `String(describing:)`, except that for non-string
    /// events whitespace and `*` (which SCXML descriptors reserve) become `_`.
    static func string(of name: Event.Name) -> String {
        if let string = name as? String { return string }
        let text = String(describing: name)
        guard text.contains(where: { $0.isWhitespace || $0 == "*" }) || text.isEmpty else { return text }
        return text.isEmpty ? "_" : String(text.map { $0.isWhitespace || $0 == "*" ? "_" : $0 })
    }

    private(set) var isLinked = false

    /// Records the compiled ids of states and registered event names; the maps are read-only
    /// from then on.
    func link(_ compiled: CompiledChart, registered: [Event.Name]) {
        defer { isLinked = true }
        statesByIndex = compiled.stateIDs.enumerated().map { index, id in index == 0 ? nil : statesByID[id] }
        var stateKeyEntries: [(key: State, id: UInt32)] = []
        for (index, state) in statesByIndex.enumerated() {
            if let state {
                stateIndex[state] = index
                stateKeyEntries.append((state, UInt32(index)))
            }
        }
        stateKeys = ByteKeyTable(stateKeyEntries, of: State.self)
        if ByteKeyTable.isDirect(State.self) {
            for (state, index) in stateKeyEntries {
                callbackArgument.storeBytes(of: index, toByteOffset: 8 + 4 * Int(ByteKeyTable.bytes(of: state)), as: UInt32.self)
            }
        }
        eventNames = compiled.eventNames
        eventByCoreID = Array(repeating: nil, count: compiled.eventNames.count)
        var nameKeyEntries: [(key: Event.Name, id: UInt32)] = []
        var eventKeyEntries: [(key: Event, id: UInt32)] = []
        for name in registered where names[name] == nil {
            let string = Self.string(of: name)
            let (id, exact) = compiled.events.lookup(string)
            guard exact else { continue }       // a descriptor such as "error.*", not an event name
            names[name] = NameEntry(id: id, name: string)
            nameKeyEntries.append((name, id))
            if eventsAreNames, let event = name as? Event {
                eventByCoreID[Int(id)] = event
                eventByName[string] = event
                eventKeyEntries.append((event, id))
            }
        }
        nameKeys = ByteKeyTable(nameKeyEntries, of: Event.Name.self)
        if eventsAreNames { eventKeys = ByteKeyTable(eventKeyEntries, of: Event.self) }
    }

    // MARK: - Lookups

    @inlinable
    func state(at index: Int) -> State? {
        index < statesByIndex.count ? statesByIndex[index] : nil
    }

    // Always inlined: a guard's `ctx.isActive(.state)` is this and one call of the core. The
    // direct case (states of at most one byte) stays inline, the others are called.
    @inlinable @inline(__always)
    func index(of state: State) -> Int? {
        guard ByteKeyTable.isDirect(State.self) else { return hashedIndex(of: state) }
        let index = stateKeys.directID(for: state)
        return index == .max ? nil : Int(index)
    }

    @inlinable @inline(never)
    func hashedIndex(of state: State) -> Int? {
        if stateKeys.isEnabled {
            let index = stateKeys.id(for: state)
            return index == .max ? nil : Int(index)
        }
        return stateIndex[state]
    }

    /// The untyped event for `event`, the typed value to attach to its slot, and its interned
    /// id when known (so the runtime does no string lookup).
    func untyped(_ event: Event) -> (event: Statechart.Event, typed: (any Sendable)?, known: (id: UInt32, exact: Bool)?) {
        let name = event.name
        var entry: NameEntry?
        if nameKeys.isEnabled {
            let id = nameKeys.id(for: name)
            if id != .max { entry = NameEntry(id: id, name: eventNames[Int(id)]) }
        } else {
            entry = names[name]
        }
        if let entry {
            if eventsAreNames { return (Statechart.Event(entry.name), nil, (entry.id, true)) }
            return (Statechart.Event(entry.name, payload: event), nil, (entry.id, true))
        }
        let string = Self.string(of: name)
        if eventsAreNames { return (Statechart.Event(string), eventsAreStrings ? nil : event, nil) }
        return (Statechart.Event(string, payload: event), nil, nil)
    }

    /// The typed event behind an event the runtime saw, or `nil` when it is not one of the
    /// chart's events (a done event, a delayed `After` event, an untyped event by another name).
    func typed(_ observed: ObservedEvent) -> Event? {
        if let typed = observed.typed as? Event { return typed }
        guard let event = observed.event else { return nil }
        if let payload = event.payload as? Event { return payload }
        guard eventsAreNames else { return nil }
        let raw = observed.raw
        if raw.data == 0, raw.id < eventByCoreID.count, let known = eventByCoreID[Int(raw.id)] { return known }
        if let known = eventByName[event.name] { return known }
        return eventsAreStrings ? event.name as? Event : nil
    }

    /// The typed event of an action's context.
    @usableFromInline
    func typed(_ context: ActionContext) -> Event? {
        let raw = context.coreEvent
        return typed(ObservedEvent(event: context.checked.swiftEvent(raw), raw: raw,
                                   typed: context.checked.typedValue(raw)))
    }
}
