import Foundation
import Statechart

extension SCXMLMachine {
    /// How to load and run a document.
    public struct Options: Sendable {
        /// Datamodels that documents may declare; ``defaultDatamodel`` (or else the first one)
        /// serves documents that declare none.
        public var datamodels: [any SCXMLDatamodel.Type] = [NullDatamodel.self]
        /// The datamodel of documents without a `datamodel` attribute, by name (`"null"`,
        /// `"ecmascript"`); one of ``datamodels``. `nil`, the default, means the first of
        /// ``datamodels``. The spec leaves the default to the platform: Qt's and uSCXML's charts
        /// assume the null datamodel, SCION's and XState's ECMAScript.
        ///
        /// ```swift
        /// var options = SCXMLMachine.Options.withECMAScript
        /// options.defaultDatamodel = "ecmascript"     // charts written for SCION
        /// ```
        public var defaultDatamodel: String?
        /// Refuse, as errors, what other tools write that breaks a rule of SCXML but has one
        /// obvious meaning (docs/COMPATIBILITY.md). By default such a document loads with that
        /// meaning, and the problem is listed in ``SCXMLMachine/warnings``.
        ///
        /// ```swift
        /// var options = SCXMLMachine.Options()
        /// options.strict = true   // a <history> without a default <transition> is an error
        /// ```
        public var strict = false
        /// Bounds of the underlying machine (queue sizes, runaway limit).
        public var machine = MachineOptions()
        /// Limits the parser enforces (size, nesting, number of states).
        public var parserLimits = SCXMLParser.Limits.default
        /// Host functions the document's expressions may call.
        public var functions: [String: SCXMLHostFunction] = [:]
        /// The clock of delayed `<send>`s: real time by default, a `TestClock` in tests.
        public var clock: any MachineClock = SystemClock.shared
        /// Host values the document's expressions may read, by variable name (read-only in
        /// datamodels with variables, such as ECMAScript; the null datamodel has none).
        public var values: [String: DataValue] = [:]

        // MARK: Network access (the BasicHTTP Event I/O Processor; docs/SECURITY.md)

        /// When sessions receive events over HTTP: the BasicHTTP Event I/O Processor (SCXML
        /// C.2). Its server starts with the first such session, listens on 127.0.0.1 only, on a
        /// port the system picks; each session gets an unguessable path, listed in
        /// `_ioprocessors` as `basichttp` (and ``SCXMLMachine/basicHTTPLocation``). Sending with
        /// `type="...#BasicHTTPEventProcessor"` works either way, to the hosts ``httpHosts`` allows.
        ///
        /// ```swift
        /// var options = SCXMLMachine.Options()
        /// options.basicHTTPServer = .whenDocumentUsesIt
        /// ```
        public var basicHTTPServer: BasicHTTPServerUse = .never
        /// `basicHTTPServer == .always`; setting it to `false` means `.never`.
        public var acceptsBasicHTTP: Bool {
            get { basicHTTPServer == .always }
            set { basicHTTPServer = newValue ? .always : .never }
        }
        /// Which hosts a BasicHTTP `<send>` may reach: loopback only by default. A refused
        /// target raises `error.communication` before any name lookup or connection.
        ///
        /// ```swift
        /// var options = SCXMLMachine.Options()
        /// options.httpHosts.hosts.insert("orders.example.com")
        /// ```
        public var httpHosts: HTTPHostAccess = .loopbackOnly

        // MARK: Script engine bounds (the ECMAScript datamodel)

        /// How long one script evaluation may run and how much memory the script heaps of one
        /// document tree may hold (defaults: 1 s, 256 MiB). See ``SCXMLScriptLimits``.
        public var scriptLimits = SCXMLScriptLimits()

        // MARK: Files and bounds (hardening: what a document may read, how much work it may make)

        /// The folder that every file named by `<data src>`, `<script src>` and `<invoke src>`
        /// must lie inside, after symlinks and `..` are resolved; other paths give
        /// `error.execution` (a `<script src>`: a load error). `nil`, the default, means the
        /// folder of the document itself (the `baseURL` it was loaded with, the file's folder
        /// for ``SCXMLMachine/init(contentsOf:options:)``); a document loaded from memory without
        /// a `baseURL` may then read no file at all. Documents it invokes share the folder.
        ///
        /// ```swift
        /// var options = SCXMLMachine.Options()
        /// options.sourceDirectory = URL(fileURLWithPath: "/srv/charts")   // shared resources
        /// ```
        public var sourceDirectory: URL?
        /// The largest file a `src` may name, in bytes; a larger one gives `error.execution`
        /// (a `<script src>`: a load error) without being read. Default 16 MiB, as the parser's
        /// ``SCXMLParser/Limits/maxDocumentSize`` (an invoked document obeys both).
        public var maximumSourceSize = 16 * 1024 * 1024
        /// How deep `<invoke>`s may nest: a document invoked by an invoked document is at
        /// depth 2. An `<invoke>` past it gives `error.execution` and starts nothing; this is
        /// what stops a document that invokes itself. Default 16.
        public var maximumInvokeDepth = 16
        /// How many invoked sessions one document tree may run at once (all depths counted);
        /// an `<invoke>` past it gives `error.execution` and starts nothing. Default 256.
        public var maximumInvokedSessions = 256
        // The events a chart sends itself that one start() or send() processes are bounded by
        // `machine.maximumQueuedEventsPerSend` (MachineOptions, default 10,000), with the step
        // bound of one macrostep: both belong to the Machine running the document.

        /// How many events may wait in one session's mailbox (events from other sessions, its
        /// invocations and BasicHTTP); past it the sender gets `error.communication` (a
        /// `<send>`) and the event is not delivered, never silently dropped. Default 1,000,000.
        public var maximumMailboxEvents = 1_000_000

        /// Whether null-datamodel conditions made only of `In()`, `!`, `&&`, `||`, `true` and
        /// `false` become state tests when the chart is built (``StateTestCondition``) instead of
        /// going through the datamodel. Always on, except in the tests that compare the two.
        package var compilesStateTests = true

        /// Whether the document's sessions (it and every session it invokes) run their
        /// deliveries, start-ups and stops on the thread that calls
        /// ``SCXMLMachine/runSessionWork(limit:)``, in the order they were scheduled, instead of
        /// each on its own queue at once. `statechart trace` and test paths set it, so a chart
        /// with `<invoke>` runs the same way every time.
        package var hostRunsSessions = false

        /// Options accepting documents of the given datamodels; the first one also serves
        /// documents that declare none.
        ///
        /// ```swift
        /// var options = SCXMLMachine.Options()
        /// options.functions["isReady"] = { _ in .bool(true) }
        /// let machine = try SCXMLMachine(string: text, options: options)
        /// ```
        public init(datamodels: [any SCXMLDatamodel.Type] = [NullDatamodel.self]) {
            self.datamodels = datamodels
        }
    }
}
