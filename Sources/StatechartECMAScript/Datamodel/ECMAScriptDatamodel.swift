import Statechart
import StatechartSCXML

/// The ECMAScript datamodel (SCXML B.2) on an embedded Duktape engine (ES5.1): `<data>` become
/// global variables, conditions and `expr`s are ECMAScript expressions, `<script>` runs
/// ECMAScript programs, and the system variables `_event`, `_sessionid`, `_name` and
/// `_ioprocessors` are read-only globals. `In('state')` tests the configuration. XML content is
/// a small DOM (`getElementsByTagName`, `getAttribute`, ...); JSON content becomes objects.
///
/// Every error (syntax, exceptions, assignment to an undeclared location or a system variable,
/// a `<foreach>` over something that is not an array) is an `error.execution` event for the
/// document; no script can crash the process.
///
/// ```swift
/// var options = SCXMLMachine.Options(datamodels: [ECMAScriptDatamodel.self, NullDatamodel.self])
/// options.functions["double"] = { arguments in
///     guard case .number(let n)? = arguments.first else { return .null }
///     return .number(2 * n)
/// }
/// options.values["limits"] = .object(["maximum": .number(3)])
/// let machine = try SCXMLMachine(contentsOf: url, options: options)   // datamodel="ecmascript"
/// try machine.start()
/// ```
///
/// Host functions registered in `SCXMLMachine.Options.functions` are global functions, host
/// values in `SCXMLMachine.Options.values` read-only globals.
///
/// Scripts are bounded by `SCXMLMachine.Options.scriptLimits`: one evaluation (a `cond`, an
/// `expr`, a `<script>`, each `<foreach>` step, `<data>`, `<assign>`, ...) stops after
/// `SCXMLScriptLimits.timePerEvaluation` (default 1 s), and the heaps of all sessions of one
/// document tree (this machine and the ones its `<invoke>`s start) hold at most
/// `SCXMLScriptLimits.memoryPerDocumentTree` bytes together (default 256 MiB). Either raises
/// `error.execution` like any script error; the machine stays in a legal configuration.
public final class ECMAScriptDatamodel: SCXMLDatamodel {
    public static let names = ["ecmascript"]

    let engine: ECMAScriptEngine
    /// The globals that exist before the document runs (built-ins, system variables, `In`,
    /// host functions and values): the variables a snapshot captures are the others.
    var builtInGlobals: [String] = []
    /// Whether the DOM prelude (ECMAScriptDOM) has run in this session's engine: only documents
    /// with XML content need it, so the others' sessions never hold it.
    var hasDOM = false
    /// The conditions and assignments prepared for the session, by handle (``prepareCondition(_:)``).
    @exclusivity(unchecked) var prepared: [PreparedSource] = []   // the datamodel serves one session
    weak var services: SCXMLSessionServices?
    /// Keys of values kept in the engine for the runtime (out of the scripts' reach).
    enum Key {
        static let eventData = "scxml.event.data"
        static let value = "scxml.value"
    }

    /// Creates the engine and binds the system variables, `In()`, and the host's functions and
    /// values.
    public init(services: SCXMLSessionServices) throws {
        let limits = services.scriptLimits
        let budget = services.documentTree.resource(ECMAScriptMemoryBudget.self) {
            ECMAScriptMemoryBudget(limit: limits.memoryPerDocumentTree)
        }
        engine = try ECMAScriptEngine(memoryBudget: budget, timeLimit: limits.timePerEvaluation)
        self.services = services
        try engine.setReadOnly("_sessionid", value: .string(services.sessionID))
        try engine.setReadOnly("_name", value: services.name.map(DataValue.string) ?? .null)
        var processors: [String: DataValue] = [:]
        for (type, location) in services.ioProcessors {
            processors[type] = .object(["location": .string(location)])
        }
        try engine.setReadOnly("_ioprocessors", value: .object(processors))
        try engine.installEventBinding()
        try engine.registerFunction("In") { [weak services] arguments in
            guard arguments.count == 1, case .string(let state) = arguments[0] else {
                throw ScriptError(name: "TypeError", message: "In() takes one state id (a string)")
            }
            return .bool(services?.isActive(state) ?? false)
        }
        for (name, function) in services.hostFunctions {
            try engine.registerFunction(name) { arguments in try function(arguments) }
        }
        for (name, value) in services.hostValues {
            try engine.setReadOnly(name, value: value)
        }
        // The DOM prelude's global is installed on first use (prepareDOM) and is no variable either.
        builtInGlobals = try Self.globalNames(of: engine) + [ECMAScriptDOM.runtimeName]
    }

    /// Nothing is rejected when loading: expressions that do not compile raise
    /// `error.execution` when they run, as SCXML requires (5.9, B.2).
    public static func check(_ document: SCXMLDocument) -> [SCXMLDiagnostic] { [] }

    /// Runs a `<script>`: inline code, or the code at `src` (loaded when the script runs).
    public func runScript(_ script: SCXMLScript) throws {
        switch script.source {
        case .inline(let code):
            try engine.execute(script: code)
        case .src(let uri):
            guard let services else { throw SCXMLExecutionError("the session has ended") }
            let code = try services.loadResource(uri)
            do {
                try engine.execute(script: code)
            } catch {
                // The error names the script by its src, never by its text: the file's
                // contents must not reach the error event's data (or a log).
                throw error.namingSource("<script src=\"\(uri)\">")
            }
        }
    }
}

extension ScriptError {
    /// The same error with `expression` replaced by `name` (`<script src="lib.js">`): for code
    /// read from a file, whose contents must not be copied into error events and logs.
    func namingSource(_ name: String) -> ScriptError {
        var copy = self
        copy.expression = name
        return copy
    }
}
