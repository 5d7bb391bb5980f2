import Foundation
import Statechart

/// A running SCXML document: a `Machine` (Statechart) whose behaviour is the document's executable content,
/// interpreted by its datamodel.
///
/// ```swift
/// let machine = try SCXMLMachine(contentsOf: URL(fileURLWithPath: "scxml/examples/microwave.scxml"))
/// machine.onLog { label, message in print(label ?? "log", message) }
/// machine.onStateChange { state, entered in print(entered ? "enter" : "exit", state) }
/// try machine.start()
/// try machine.send("turn.on")
/// print(machine.configuration)
/// ```
///
/// Threading follows `Machine`: any thread may send; callbacks run with the machine held, on
/// the thread that sent (or on the scheduler's thread for delayed events).
///
/// Each machine is an SCXML session: documents reach it with `<send target="#_scxml_<id>">`
/// (``sessionID``), and the sessions it starts with `<invoke>` run on their own queues. Events
/// between sessions are never delivered synchronously: they wait in the receiving session's
/// mailbox until its machine is free, so sessions messaging each other cannot deadlock. With
/// ``Options/basicHTTPServer`` the session also receives events over HTTP on 127.0.0.1.
public final class SCXMLMachine: @unchecked Sendable {
    // @unchecked: `session` is only used with `machine` held (see SCXMLSession).

    /// The parsed document.
    public let document: SCXMLDocument
    /// What the document gets wrong but was loaded anyway, with the meaning it was given
    /// (`file:line:column: warning: ...`, in document order; docs/COMPATIBILITY.md). Always
    /// empty with ``Options/strict``.
    ///
    /// ```swift
    /// let machine = try SCXMLMachine(contentsOf: url)
    /// machine.warnings.forEach { print($0) }
    /// ```
    public let warnings: [SCXMLDiagnostic]
    /// The machine running it; use it for observers and configuration queries.
    public let machine: Machine
    /// `machine.chart.identity`, kept here so ``send(_:)-(SCXMLMachine.EventHandle)`` checks a handle without
    /// reading (and retaining) the compiled chart on every send.
    @usableFromInline let chartIdentity: ChartIdentity
    /// This session's id (`_sessionid`).
    public var sessionID: String { session.sessionID }
    /// Where this session receives events over HTTP (`_ioprocessors['basichttp'].location`),
    /// or `nil` when ``Options/basicHTTPServer`` gives it none.
    ///
    /// ```swift
    /// if let url = machine.basicHTTPLocation { print("POST events to", url) }
    /// ```
    public var basicHTTPLocation: String? { session.ioProcessors["basichttp"] }

    let session: SCXMLSession
    private let finished = DispatchSemaphore(value: 0)
    private static let sessionCounter = SessionCounter()

    /// Loads the document at `url`; `file:` references resolve against its folder, and `src`
    /// files must lie inside it unless ``Options/sourceDirectory`` names another folder.
    public convenience init(contentsOf url: URL, options: Options = Options()) throws {
        let data: Data
        do {
            data = try SCXMLParser.readDocument(contentsOf: url, limits: options.parserLimits)
        } catch {
            throw SCXMLLoadError(diagnostics: error.diagnostics)
        }
        try self.init(data: data, fileName: url.path, baseURL: url.deletingLastPathComponent(), options: options)
    }

    /// Loads a document from a string; `fileName` appears in diagnostics. Without `baseURL` (or
    /// ``Options/sourceDirectory``) the document can read no `src` file.
    public convenience init(string: String, fileName: String = "<string>", baseURL: URL? = nil,
                            options: Options = Options()) throws {
        try self.init(data: Data(string.utf8), fileName: fileName, baseURL: baseURL, options: options)
    }

    /// Loads a document from memory; `fileName` appears in diagnostics.
    public convenience init(data: Data, fileName: String = "<data>", baseURL: URL? = nil,
                            options: Options = Options()) throws {
        let parsed = SCXMLParser.collect(data: data, fileName: fileName, limits: options.parserLimits,
                                         strict: options.strict)
        guard let document = parsed.document, !parsed.diagnostics.contains(where: \.isError) else {
            // Every error at once: the datamodel's too, when the parser could build a model.
            var diagnostics = parsed.diagnostics
            if let partial = parsed.document, let datamodel = try? Self.datamodelType(of: partial, options: options) {
                diagnostics += Self.check(partial, with: datamodel, options: options)
            }
            throw SCXMLLoadError(diagnostics: SCXMLParser.sorted(diagnostics))
        }
        try self.init(document: document, baseURL: baseURL, options: options)
    }

    /// Prepares a parsed document: picks its datamodel, checks the document against it, and
    /// compiles the chart. Nothing runs until ``start()``.
    public convenience init(document: SCXMLDocument, baseURL: URL? = nil, options: Options = Options()) throws {
        try self.init(document: document, baseURL: baseURL, options: options, parent: nil, invokeValues: [:])
    }

    /// A session for `document`, invoked by `parent` when given (with the values its
    /// `namelist`/`<param>` passed).
    init(document: SCXMLDocument, baseURL: URL?, options: Options, parent: SCXMLSession.ParentLink?,
         invokeValues: [String: DataValue]) throws {
        self.document = document
        let datamodelType = try Self.datamodelType(of: document, options: options)
        // The passes below recurse as deep as the document nests (for a document built in code,
        // as deep as its states nest).
        let depth = document.nestingDepth > 0 ? document.nestingDepth : Self.stateDepth(of: document)
        // The folder `src` may read from is the top document's, also for the documents it invokes.
        let parentSession = parent?.session
        let access = parentSession?.sourceAccess ?? SourceAccess(options: options, baseURL: baseURL)
        // The datamodel's problems and the scripts that cannot be loaded, reported together.
        var diagnostics = document.warnings
        var scripts: [String: String] = [:]
        NestingStack.run(depth: depth) {
            diagnostics += Self.check(document, with: datamodelType, options: options)
            do {
                scripts = try Self.loadScripts(of: document, baseURL: baseURL, access: access)
            } catch let error as SCXMLLoadError {
                // One error per element: a <script> the datamodel refuses need not load too.
                let refused = Set(diagnostics.filter(\.isError).map(\.location))
                diagnostics += error.diagnostics.filter { !refused.contains($0.location) }
            } catch {
                preconditionFailure("loadScripts throws only SCXMLLoadError")
            }
        }
        if options.strict { diagnostics = diagnostics.map(\.asError) }
        diagnostics = SCXMLParser.sorted(diagnostics)
        if diagnostics.contains(where: \.isError) { throw SCXMLLoadError(diagnostics: diagnostics) }
        warnings = diagnostics

        session = SCXMLSession(document: document, baseURL: baseURL, sessionID: Self.sessionCounter.next(),
                               options: options, parent: parent, invokeValues: invokeValues, sourceAccess: access,
                               invokeDepth: parentSession.map { $0.invokeDepth + 1 } ?? 0,
                               tree: parentSession?.tree ?? SessionTree(hostRuns: options.hostRunsSessions))
        session.preloaded = scripts
        let chart: CompiledChart
        do {
            let session = self.session
            chart = try NestingStack.run(depth: depth) { try CompiledChart(SCXMLChartBuilder(session: session, datamodel: datamodelType).chart()) }
        } catch let error as ChartCompilationError {
            throw SCXMLLoadError(diagnostics: error.errors.map { error in
                let location = error.location.map { SCXMLSourceLocation(file: $0.file, line: $0.line, column: $0.column) }
                    ?? document.sourceLocation
                return SCXMLDiagnostic(location: location, element: "scxml", message: error.message)
            })
        }
        machine = Machine(chart, options: options.machine, clock: options.clock)
        chartIdentity = chart.identity
        session.machine = machine
        for test in session.stateTests { test.resolve { [machine] in machine.stateIndex(of: $0) } }
        session.stateTests = []
        // A transition whose targets cannot be active together once history is resolved is not
        // taken; the document hears of it as error.execution (SCXML 5.10).
        machine.setTransitionErrorHandler { [weak session] ctx, message in
            session?.raiseError("error.execution", message, ctx: ctx)
        }
        // No external-event gate yet: the session installs it when it first has work for it
        // (events from other sessions, deferred sends, invocations; SCXMLSession.installGate).
        do {
            session.datamodel = try datamodelType.init(services: session)
        } catch {
            throw SCXMLLoadError(diagnostics: [SCXMLDiagnostic(location: document.sourceLocation, element: "scxml",
                message: "the \(datamodelType.names.first ?? "") datamodel could not start: \(error)")])
        }
        // `_event` is the last event processed, also when its transitions run no content (a
        // later eventless transition's condition may read it): a datamodel that binds it hears
        // of every transition taken for an event. The null datamodel has no `_event`.
        if session.bindsEvent {
            machine.onTransitionEvent { [unowned session] ctx in session.rememberEvent(ctx) }
        }
        // Told once the macrostep that halts the machine has completed (or when it is stopped):
        // no state observer, so the core runs unobserved microsteps without calling Swift.
        let finished = self.finished
        machine.onHalt { finished.signal() }
        SessionRegistry.shared.register(session)
    }

    deinit {
        SessionRegistry.shared.unregister(session.sessionID)
        BasicHTTPServer.shared.forget(session.sessionID)
    }

    /// Initializes the datamodel (early binding), runs the top-level script, and enters the
    /// initial configuration. Data or script errors become `error.execution` events.
    public func start() throws {
        try machine.start()
        if !session.mailbox.withLock({ $0.isEmpty }) {
            session.schedule { [session] in session.poke() }
        }
    }

    /// The most items of session work ``runSessionWork(limit:)`` runs by default: far more than a
    /// chart that settles needs, so reaching it means the sessions keep each other busy.
    package static let sessionWorkLimit = 100_000

    /// With ``Options/hostRunsSessions``: runs, on this thread and in the order it was scheduled,
    /// the work of the document's sessions (invoked sessions' start-ups, stops and deliveries,
    /// and this machine's handling of the events they send it), and the work that schedules,
    /// until none is left or `limit` items have run; whether none is left. Call it holding no
    /// machine (between two sends).
    package func runSessionWork(limit: Int = sessionWorkLimit) -> Bool {
        session.tree.runPending(limit: limit)
    }

    /// Sends an external event with optional data; returns once its macrostep has completed.
    ///
    /// ```swift
    /// try machine.send("turn.on")
    /// try machine.send("order.placed", data: .object(["id": .number(7)]))
    /// ```
    /// The document sees the event in `_event` as type `external` with the given data.
    ///
    /// - Complexity: an event without data whose name the document mentions exactly (as a
    ///   transition's event descriptor or a prefix of one) costs one macrostep and a hash of the
    ///   name's bytes: it reaches the underlying ``machine`` as its interned id alone, without
    ///   payload (`Machine` observers see `Event.payload` `nil`), and
    ///   its `_event` is built only if the datamodel reads it. Other events carry an
    ///   ``SCXMLEvent`` payload.
    @inlinable @discardableResult
    public func send(_ name: String, data: DataValue? = nil) throws -> SendOutcome {
        if case .none = data, let outcome = try machine.sendInterned(name, flags: SCXMLEvent.bareExternalFlag) {
            return outcome
        }
        return try sendWithPayload(name, data: data)
    }

    /// The general path: the event travels in a payload slot. Kept out of line, so the fast
    /// path above stays small enough to inline into the caller.
    @usableFromInline @inline(never)
    func sendWithPayload(_ name: String, data: DataValue?) throws -> SendOutcome {
        try machine.send(Event(name, payload: SCXMLEvent(name: name, type: .external, data: data)))
    }

    @inline(never)
    private func sendWithPayload(_ event: SCXMLEvent) throws -> SendOutcome {
        try machine.send(Event(event.name, payload: event))
    }

    /// Sends an SCXML event as is (origin, sendid, invokeid, ...). An event with only a name
    /// (type `external`, no data or ids) is sent like ``send(_:data:)`` without data.
    ///
    /// ```swift
    /// try machine.send(SCXMLEvent(name: "reply", origin: "#_scxml_7", data: .string("ok")))
    /// ```
    @discardableResult
    public func send(_ event: SCXMLEvent) throws -> SendOutcome {
        if event.isBareExternal, let outcome = try machine.sendInterned(event.name, flags: SCXMLEvent.bareExternalFlag) {
            return outcome
        }
        return try sendWithPayload(event)
    }

    /// The active atomic states, in document order.
    public var configuration: [String] { machine.configuration }

    /// Whether state `id` is active.
    public func isActive(_ id: String) -> Bool { machine.isActive(id) }

    /// Whether the machine has reached a top-level final state.
    public var isFinished: Bool { machine.isFinished }

    /// Waits until the machine reaches a top-level final state (and that macrostep has
    /// completed, and the sessions it invoked have stopped) or `timeout` passes; returns whether
    /// it finished. Delayed events and events from other sessions keep coming meanwhile.
    public func waitUntilFinished(timeout: Duration) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = DispatchTime.now() + seconds
        // The final state is reported as it is entered; isFinished reads through the machine,
        // so it also waits for that macrostep (onentry, exitInterpreter) to complete.
        if !isFinished {
            if finished.wait(timeout: deadline) == .success { finished.signal() }   // later waiters see it too
            guard isFinished else { return false }
        }
        _ = session.stopping.wait(timeout: deadline)      // the sessions it cancelled run their exit handlers
        return true
    }

    /// Calls `handler` for every `<log>` the document executes, and those of the sessions it
    /// invokes (they inherit the handler set when they start).
    public func onLog(_ handler: @escaping @Sendable (_ label: String?, _ message: String) -> Void) {
        session.setHooks { $0.log = handler }
    }

    /// Calls `handler` for events the document sends to targets the runtime does not route
    /// itself: URIs other than `#_<invokeid>`, `#_scxml_<sessionid>` and BasicHTTP URLs, and
    /// `#_parent` when no session invoked this one (the host is then its parent). Return
    /// `false` when the target is unknown: the document then gets `error.communication`.
    public func onSend(_ handler: @escaping @Sendable (_ event: SCXMLEvent, _ target: String, _ type: String?) -> Bool) {
        session.setHooks { $0.send = handler }
    }

    /// Calls `handler` for each event this document's executable content raises (`<raise>`) or
    /// sends (`<send>`, once accepted for delivery or scheduled), and each error event the
    /// runtime raises because content failed, in the order they happen, with the machine held
    /// (from the microstep that ran the content). Sessions it invokes do not report here.
    ///
    /// ```swift
    /// machine.onOutgoingEvent { event in print(event.name, event.kind) }
    /// ```
    public func onOutgoingEvent(_ handler: @escaping @Sendable (SCXMLOutgoingEvent) -> Void) {
        session.setHooks { $0.outgoing = handler }
    }

    /// Calls `observer` each time a state (by its id) is entered or exited.
    @discardableResult
    public func onStateChange(_ observer: @escaping @Sendable (_ state: String, _ entered: Bool) -> Void) -> ObserverToken {
        machine.onStateChange(observer)
    }
}

extension SCXMLMachine {
    /// The datamodel that runs `document`: the one it declares, or ``Options/defaultDatamodel``.
    static func datamodelType(of document: SCXMLDocument, options: Options) throws -> any SCXMLDatamodel.Type {
        let available = options.datamodels.flatMap { $0.names }.joined(separator: ", ")
        if let declared = document.datamodel {
            guard let type = options.datamodels.first(where: { $0.names.contains(declared) }) else {
                throw SCXMLLoadError(diagnostics: [SCXMLDiagnostic(location: document.sourceLocation, element: "scxml",
                    message: "datamodel \"\(declared)\" is not available (available: \(available)); link StatechartECMAScript and pass ECMAScriptDatamodel.self in SCXMLMachine.Options.datamodels for \"ecmascript\"")])
            }
            return type
        }
        guard let name = options.defaultDatamodel else {
            guard let first = options.datamodels.first else {
                throw SCXMLLoadError(diagnostics: [SCXMLDiagnostic(location: document.sourceLocation, element: "scxml",
                    message: "no datamodel is available (SCXMLMachine.Options.datamodels is empty)")])
            }
            return first
        }
        guard let type = options.datamodels.first(where: { $0.names.contains(name) }) else {
            throw SCXMLLoadError(diagnostics: [SCXMLDiagnostic(location: document.sourceLocation, element: "scxml",
                message: "the document declares no datamodel and the default, \"\(name)\" (SCXMLMachine.Options.defaultDatamodel), is not available (available: \(available))")])
        }
        return type
    }

    /// How deep the states of `document` nest (the root is 1), found without recursion.
    static func stateDepth(of document: SCXMLDocument) -> Int {
        var deepest = 1
        var pending: [(states: [SCXMLState], depth: Int)] = [(document.states, 2)]
        while let (states, depth) = pending.popLast() {
            for state in states {
                deepest = max(deepest, depth)
                if !state.children.isEmpty { pending.append((state.children, depth + 1)) }
            }
        }
        return deepest
    }

    /// What `datamodel` finds in `document`: errors, and warnings (errors when strict).
    static func check(_ document: SCXMLDocument, with datamodel: any SCXMLDatamodel.Type,
                      options: Options) -> [SCXMLDiagnostic] {
        let problems = datamodel.check(document)
        return options.strict ? problems.map(\.asError) : problems
    }

    /// The text of every `<script src>`, by URI; a script that cannot be loaded rejects the
    /// document (SCXML 5.8, W3C test 301).
    static func loadScripts(of document: SCXMLDocument, baseURL: URL?, access: SourceAccess) throws(SCXMLLoadError) -> [String: String] {
        var sources: [(String, SCXMLSourceLocation)] = []
        SCXMLDocumentWalker.visit(document) { item in
            switch item {
            case .script(let script), .executable(.script(let script)):
                if case .src(let uri) = script.source { sources.append((uri, script.sourceLocation)) }
            default:
                break
            }
        }
        var texts: [String: String] = [:]
        var problems: [SCXMLDiagnostic] = []
        for (uri, location) in sources where texts[uri] == nil {
            do {
                texts[uri] = try access.readText(uri, baseURL: baseURL)
            } catch {
                problems.append(SCXMLDiagnostic(location: location, element: "script",
                    message: "<script src=\"\(uri)\"> cannot be loaded, so the document is invalid: \(error)"))
            }
        }
        if !problems.isEmpty { throw SCXMLLoadError(diagnostics: problems) }
        return texts
    }
}

/// Process-wide session ids, unique and readable.
final class SessionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> String {
        lock.withLock {
            value += 1
            return "\(value)"
        }
    }
}
