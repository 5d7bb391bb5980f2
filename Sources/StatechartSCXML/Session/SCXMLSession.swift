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
    /// The datamodel itself: read it through ``datamodel``, which binds a waiting `_event` first.
    @exclusivity(unchecked) var model: SCXMLDatamodel!
    /// Whether the datamodel has an `_event` to keep current (the null datamodel has none).
    @exclusivity(unchecked) var bindsEvent = true
    /// The event ``rememberEvent(_:)`` saw last, until the datamodel is next used: `_event` is made
    /// (an `SCXMLEvent`, then the datamodel's own object) only if an expression may read it.
    @exclusivity(unchecked) var pendingEvent: (event: Event, flags: UInt32)?
    /// The name of the bare external event (``SCXMLEvent/bareExternalFlag``, no payload) waiting
    /// to be bound instead of `pendingEvent`, which then is `nil` or superseded.
    @exclusivity(unchecked) var pendingBareName: String?
    /// `pendingEvent != nil || pendingBareName != nil`, as a plain flag (testing the optional
    /// tuple calls the runtime).
    @exclusivity(unchecked) var eventPending = false
    weak var machine: Machine? {
        didSet { heldMachine = machine.map { Unmanaged.passUnretained($0) } }
    }
    /// `machine` without the cost of a weak reference (nor of a retain: machines are weakly
    /// referenced, so their retains take a side table's slow path), for the datamodel's
    /// queries. Only used while the machine runs a callback (so it is alive).
    var heldMachine: Unmanaged<Machine>?
    /// Read them with `hooks.withLock`; change them with ``setHooks(_:)`` only (SCXMLSession+Hooks.swift).
    let hooks = Mutex(Hooks())
    /// Counts changes of `hooks`, so `<log>` can use its own copy of the log hook without
    /// taking the lock (two atomic operations per `<log>`) until the hooks change.
    let hooksVersion = Atomic<UInt>(0)
    @exclusivity(unchecked) var logCopy: LogHook?
    /// `logCopy` unretained, for calling it: `logCopy` keeps it alive, and is only replaced by
    /// ``log(_:_:)`` before it calls (never during a call).
    @exclusivity(unchecked) var logCopyReference: Unmanaged<LogHook>?
    @exclusivity(unchecked) var logCopyVersion = UInt.max
    @exclusivity(unchecked) var outgoingCopy: (@Sendable (SCXMLOutgoingEvent) -> Void)?
    @exclusivity(unchecked) var outgoingCopyVersion = UInt.max
    /// The `<onentry>`/`<onexit>` whose content runs, for ``reportOutgoing(_:)``.
    @exclusivity(unchecked) var contentOrigin: SCXMLOutgoingEvent.Origin?

    /// Whether the machine's external-event gate (``admit(_:)``) is installed. It is installed
    /// the first time it has work: before events from the mailbox reach the machine (and before
    /// the first poke), before a deferred `<send>` is scheduled, and when an invocation starts
    /// (`<finalize>`, `autoforward`). Until then external events run without it.
    let gateInstalled = Atomic<Bool>(false)

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

    /// What `_event` was last bound to: `lastEvent`, or the name of a bare external event
    /// (``SCXMLEvent/bareExternalFlag``) when `lastExternalEventName` is set; rebinding the
    /// same event is skipped.
    var lastEvent: SCXMLEvent?
    var lastExternalEventName: String?
    /// The id and flags of the payload-free event remembered last (``rememberEvent(_:)``), `nil`
    /// after an event with payload.
    var rememberedEventKey: UInt64?
    var sendCounter = 0
    var invokeCounter = 0
    var initializedStates: Set<String> = []
    /// The conditions compiled to state tests while the chart is built, until the machine
    /// resolves their state ids (SCXMLMachine.init).
    var stateTests: [StateTestCondition] = []
    /// The datamodel's handles of the chart's transition conditions and of the `<assign>`s of its
    /// content blocks, by the slot the chart builder gave each (``SCXMLDatamodel/prepareCondition(_:)``):
    /// ``unprepared`` until first used, ``byText`` when the datamodel prepared nothing.
    // Unchecked: the session is only used with its machine held (one thread at a time).
    @exclusivity(unchecked) var preparedConditions: [Int] = []
    @exclusivity(unchecked) var preparedAssignments: [Int] = []
    static let unprepared = -1
    static let byText = -2

    /// The handle in `slot` of `handles` (``preparedConditions`` or ``preparedAssignments``),
    /// from `prepare` on first use: ``byText`` when the datamodel prepares nothing for it.
    @inline(__always)
    static func preparedHandle(_ handles: inout [Int], _ slot: Int, prepare: () -> Int?) -> Int {
        let handle = handles[slot]
        if handle != unprepared { return handle }
        let prepared = prepare().flatMap { $0 >= 0 ? $0 : nil } ?? byText
        handles[slot] = prepared
        return prepared
    }

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

    /// Runs `work` on this session's worker queue, or when the host runs the tree's work
    /// (``SCXMLMachine/Options/hostRunsSessions``). Holding no machine.
    func schedule(_ work: @escaping @Sendable () -> Void) {
        tree.schedule(on: worker, work)
    }

    func isActive(_ id: String) -> Bool { machine?.isActive(id) ?? false }

    /// The index of state `id` in the compiled chart, or `nil` when no state has that id.
    func stateIndex(of id: String) -> Int? { machine?.stateIndex(of: id) }

    /// Whether the state at `index` is active. Only while the machine is held (in a guard,
    /// an action or the gate), like every datamodel call.
    func isActive(stateIndex index: Int) -> Bool {
        heldMachine?._withUnsafeGuaranteedRef { $0.isActiveWhileHeld(stateAt: index) } ?? false
    }
}
