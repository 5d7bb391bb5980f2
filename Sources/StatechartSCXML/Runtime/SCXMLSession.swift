import Foundation
import Statechart
import Synchronization

/// The per-machine state of an SCXML document at run time: its datamodel, ids, hooks, the
/// interpreter of executable content, its mailbox and its invocations. Every method that is not
/// marked otherwise runs with the machine held (inside guards, actions and the external-event
/// gate, or before start), which is what makes the unchecked Sendable conformance sound. The
/// mailbox and `cancelled` have their own locks: other sessions' threads use them.
final class SCXMLSession: SCXMLSessionServices, @unchecked Sendable {
    let document: SCXMLDocument
    let baseURL: URL?
    let sessionID: String
    let options: SCXMLMachine.Options
    /// What `src` may read (shared with the sessions this one invokes).
    let sourceAccess: SourceAccess
    /// 0 for a session the host started, its parent's depth + 1 for an invoked one.
    let invokeDepth: Int
    /// The invoked sessions of the whole document tree (shared with them), for
    /// ``SCXMLMachine/Options/maximumInvokedSessions``.
    let tree: SessionTree
    /// Whether this session counts in `tree` (it was invoked and started); it stops counting
    /// when it is freed.
    var countsInTree = false
    var name: String? { document.name }
    var hostFunctions: [String: SCXMLHostFunction] { options.functions }
    var hostValues: [String: DataValue] { options.values }
    var scriptLimits: SCXMLScriptLimits { options.scriptLimits }
    /// Shared with the invoking session, so script memory is bounded per document tree.
    let documentTree: SCXMLDocumentTree
    /// The datamodel. Reading it first binds `_event` when an event is waiting to be bound
    /// (see ``prepare(_:)``), so every use sees the event of the microstep being run.
    var datamodel: SCXMLDatamodel! {
        get {
            if eventPending { bindPendingEvent() }
            return model
        }
        set {
            model = newValue
            bindsEvent = !(newValue is NullDatamodel)
        }
    }
    @exclusivity(unchecked) private var model: SCXMLDatamodel!
    /// Whether the datamodel has an `_event` to keep current (the null datamodel has none).
    @exclusivity(unchecked) private(set) var bindsEvent = true
    /// The event ``prepare(_:)`` saw last, until the datamodel is next used: `_event` is made
    /// (an `SCXMLEvent`, then the datamodel's own object) only if an expression may read it.
    @exclusivity(unchecked) private var pendingEvent: (event: Event, flags: UInt32)?
    /// `pendingEvent != nil`, as a plain flag (testing the optional tuple calls the runtime).
    @exclusivity(unchecked) private var eventPending = false
    weak var machine: Machine? {
        didSet { heldMachine = machine.map { Unmanaged.passUnretained($0) } }
    }
    /// `machine` without the cost of a weak reference (nor of a retain: machines are weakly
    /// referenced, so their retains take a side table's slow path), for the datamodel's
    /// queries. Only used while the machine runs a callback (so it is alive).
    private var heldMachine: Unmanaged<Machine>?

    /// Host callbacks; set from any thread, read while running content.
    struct Hooks {
        var log: (@Sendable (_ label: String?, _ message: String) -> Void)?
        /// Delivers an event to a target outside this machine; false when the target is unknown.
        var send: (@Sendable (_ event: SCXMLEvent, _ target: String, _ type: String?) -> Bool)?
        /// Told of each event the content raises or sends (``SCXMLMachine/onOutgoingEvent(_:)``).
        var outgoing: (@Sendable (SCXMLOutgoingEvent) -> Void)?
    }
    /// Read them with `hooks.withLock`; change them with ``setHooks(_:)`` only.
    let hooks = Mutex(Hooks())
    /// Counts changes of `hooks`, so `<log>` can use its own copy of the log hook without
    /// taking the lock (two atomic operations per `<log>`) until the hooks change.
    private let hooksVersion = Atomic<UInt>(0)
    @exclusivity(unchecked) private var logCopy: (@Sendable (_ label: String?, _ message: String) -> Void)?
    @exclusivity(unchecked) private var logCopyVersion = UInt.max
    @exclusivity(unchecked) private var outgoingCopy: (@Sendable (SCXMLOutgoingEvent) -> Void)?
    @exclusivity(unchecked) private var outgoingCopyVersion = UInt.max
    /// The `<onentry>`/`<onexit>` whose content runs, for ``reportOutgoing(_:)``.
    @exclusivity(unchecked) var contentOrigin: SCXMLOutgoingEvent.Origin?

    /// Changes the hooks (any thread).
    func setHooks(_ change: (inout Hooks) -> Void) {
        hooks.withLock { change(&$0) }
        hooksVersion.add(1, ordering: .releasing)
    }

    /// Calls the log hook, if any. With the machine held (executable content): the copy is
    /// only touched there.
    func log(_ label: String?, _ message: String) {
        let version = hooksVersion.load(ordering: .acquiring)
        if version != logCopyVersion {
            // Copied out into a local: returned as the result of `withLock` (generic), a
            // closure would be wrapped in a reabstraction thunk, an allocation per call.
            var handler: (@Sendable (_ label: String?, _ message: String) -> Void)?
            hooks.withLock { handler = $0.log }
            logCopy = handler
            logCopyVersion = version
        }
        logCopy?(label, message)
    }

    /// Tells the outgoing-event hook, if any, of an event the content raised or sent; with
    /// the machine held, as ``log(_:_:)``. The event is only made when someone listens.
    @inline(__always)
    func reportOutgoing(_ event: @autoclosure () -> SCXMLOutgoingEvent) {
        let version = hooksVersion.load(ordering: .acquiring)
        if version != outgoingCopyVersion {
            var handler: (@Sendable (SCXMLOutgoingEvent) -> Void)?
            hooks.withLock { handler = $0.outgoing }
            outgoingCopy = handler
            outgoingCopyVersion = version
        }
        if let outgoingCopy { outgoingCopy(event()) }
    }

    /// Whether the machine's external-event gate (``admit(_:)``) is installed. It is installed
    /// the first time it has work: before events from the mailbox reach the machine (and before
    /// the first poke), before a deferred `<send>` is scheduled, and when an invocation starts
    /// (`<finalize>`, `autoforward`). Until then external events run without it.
    let gateInstalled = Atomic<Bool>(false)

    /// Installs the external-event gate unless it is already installed. Any thread; from one
    /// that holds no machine, or from this machine's own callbacks. The flag is set once the
    /// gate is in place: a caller holding the machine while another thread waits for it to
    /// install the gate installs it itself (installing twice is harmless).
    func installGate() {
        guard !gateInstalled.load(ordering: .acquiring), let machine else { return }
        machine.setExternalEventGate { [self] ctx in
            // A host's event sent by name has nothing for the gate to do unless events wait in
            // the mailbox or an invocation forwards events.
            if ctx.eventFlags & SCXMLEvent.bareExternalFlag != 0 && !invocations.contains(where: \.autoforward)
                && mailbox.withLock({ $0.isEmpty }) {
                return true
            }
            return admit(ctx)
        }
        gateInstalled.store(true, ordering: .releasing)
    }

    /// Set when this session runs for an `<invoke>` of another session.
    let parent: ParentLink?
    /// Values the invoking session passed (`namelist`, `<param>`), by name.
    let invokeValues: [String: DataValue]
    /// The invoking state was exited: this session is being stopped and reports nothing back.
    let cancelled = Atomic<Bool>(false)

    /// Events from other sessions, waiting for the machine (see SCXMLSession+Mailbox.swift).
    let mailbox = Mutex<[SCXMLEvent]>([])
    /// Events for the invoking session, waiting for the macrostep that sent them to complete.
    let outbox = Mutex<[SCXMLEvent]>([])
    /// Runs this session's deliveries and start-up in order, off the senders' threads.
    let worker: DispatchQueue

    /// The invocations this session started and has not cancelled, in start order.
    var invocations: [SCXMLInvocation] = []
    /// Cancelled invocations whose sessions are still stopping (running their exit handlers).
    let stopping = DispatchGroup()

    /// `<script src>` texts, loaded when the document was (SCXML 5.8: a script that cannot be
    /// loaded makes the document invalid).
    var preloaded: [String: String] = [:]

    private var lastEvent: SCXMLEvent?
    private var sendCounter = 0
    var invokeCounter = 0
    var initializedStates: Set<String> = []

    static let processorTypes: Set<String> = [
        SCXMLEvent.scxmlProcessorType, "scxml", "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml",
    ]
    static let basicHTTPTypes: Set<String> = [SCXMLEvent.basicHTTPProcessorType, "basichttp"]

    struct ParentLink {
        weak var session: SCXMLSession?
        var invokeID: String
    }

    init(document: SCXMLDocument, baseURL: URL?, sessionID: String, options: SCXMLMachine.Options,
         parent: ParentLink? = nil, invokeValues: [String: DataValue] = [:], sourceAccess: SourceAccess,
         invokeDepth: Int = 0, tree: SessionTree = SessionTree()) {
        self.document = document
        self.sourceAccess = sourceAccess
        self.invokeDepth = invokeDepth
        self.tree = tree
        self.baseURL = baseURL
        self.sessionID = sessionID
        self.options = options
        self.parent = parent
        self.documentTree = parent?.session?.documentTree ?? SCXMLDocumentTree()
        self.invokeValues = invokeValues
        self.worker = DispatchQueue(label: "statechart.scxml.session.\(sessionID)")
    }

    deinit {
        if countsInTree { tree.release() }
    }

    func isActive(_ id: String) -> Bool { machine?.isActive(id) ?? false }

    /// The index of state `id` in the compiled chart, or `nil` when no state has that id.
    func stateIndex(of id: String) -> Int? { machine?.stateIndex(of: id) }

    /// Whether the state at `index` is active. Only while the machine is held (in a guard,
    /// an action or the gate), like every datamodel call.
    func isActive(stateIndex index: Int) -> Bool {
        heldMachine?._withUnsafeGuaranteedRef { $0.isActiveWhileHeld(stateAt: index) } ?? false
    }

    var ioProcessors: [String: String] {
        var processors = ["scxml": "#_scxml_\(sessionID)", SCXMLEvent.scxmlProcessorType: "#_scxml_\(sessionID)"]
        if receivesBasicHTTP, let location = BasicHTTPServer.shared.location(of: sessionID) {
            processors["basichttp"] = location
            processors[SCXMLEvent.basicHTTPProcessorType] = location
        }
        return processors
    }

    /// Whether ``SCXMLMachine/Options/basicHTTPServer`` gives this session a location.
    private var receivesBasicHTTP: Bool {
        switch options.basicHTTPServer.kind {
        case .never: return false
        case .always: return true
        case .whenUsed:
            return document.mentionsBasicHTTP
                || preloaded.values.contains { $0.range(of: "basichttp", options: .caseInsensitive) != nil }
        }
    }

    /// `uri` as a file URL: `file:` paths and bare relative paths resolve against `baseURL`.
    static func url(of uri: String, baseURL: URL?) throws -> URL {
        if uri.hasPrefix("file:") {
            var path = String(uri.dropFirst(5))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            return path.hasPrefix("/") ? URL(fileURLWithPath: path)
                : (baseURL?.appendingPathComponent(path) ?? URL(fileURLWithPath: path))
        } else if let absolute = URL(string: uri), absolute.scheme != nil {
            throw SCXMLExecutionError("cannot load '\(uri)': only file: URIs are supported")
        }
        return baseURL?.appendingPathComponent(uri) ?? URL(fileURLWithPath: uri)
    }

    /// The text `src` names, within ``sourceAccess``.
    func loadResource(_ uri: String) throws -> String {
        if let text = preloaded[uri] { return text }
        return try sourceAccess.readText(uri, baseURL: baseURL)
    }

    // MARK: - Errors and events

    func raiseError(_ name: String, _ message: String, ctx: ActionContext, sendID: String? = nil) {
        reportOutgoing(SCXMLOutgoingEvent(name: name, kind: .error(message: message), origin: contentOrigin))
        ctx.raise(Event(name, payload: SCXMLEvent(name: name, type: .platform, sendID: sendID, data: .string(message))))
    }

    /// Keeps `_event` current: the datamodel sees the event of the microstep being run. The
    /// binding itself waits until the datamodel is used (``datamodel``): content that
    /// evaluates nothing (`<raise>`, a `<log>` without `expr`, literal `<send>`s) costs none.
    @inline(__always)
    func prepare(_ ctx: ActionContext) {
        if bindsEvent { setPendingEvent(ctx) }
    }

    private func setPendingEvent(_ ctx: ActionContext) {
        // No event (eventless transitions, the initial entry): `_event` keeps its value.
        guard let event = ctx.event else { return }
        pendingEvent = (event, ctx.eventFlags)
        eventPending = true
    }

    private func bindPendingEvent() {
        eventPending = false
        guard let (event, flags) = pendingEvent else { return }
        pendingEvent = nil
        let scxml = SCXMLEvent(event, flags: flags)
        if scxml != lastEvent {
            lastEvent = scxml
            model.setEvent(scxml)
        }
    }

    // MARK: - Conditions

    func condition(_ cond: String, ctx: ActionContext) -> Bool {
        prepare(ctx)
        do {
            return try datamodel.evaluateCondition(cond)
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
    private func initialize(_ data: [SCXMLData], ctx: ActionContext, overrides: [String: DataValue] = [:]) {
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

    func nextSendID() -> String {
        sendCounter += 1
        return "send.\(sessionID).\(sendCounter)"
    }
}

extension DataValue {
    /// How SCXML renders a value where a string is needed (event names, targets, logs).
    package var scxmlString: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return s
        case .array(let items): return items.map(\.scxmlString).joined(separator: ",")
        case .object: return "[object Object]"
        }
    }
}
