import Statechart

/// A failure while executing content or evaluating an expression. The interpreter turns it into
/// `error.execution` on the internal queue and stops the current block (SCXML 4.9).
///
/// ```swift
/// throw SCXMLExecutionError("the null datamodel has no locations ('x')")
/// ```
public struct SCXMLExecutionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for the `error.execution` event's data.
    public var message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// What a datamodel may ask of the session it serves.
public protocol SCXMLSessionServices: AnyObject {
    /// The session id (`_sessionid`).
    var sessionID: String { get }
    /// The document's name (`_name`), or `nil`.
    var name: String? { get }
    /// Whether state `id` is active (the `In()` predicate).
    func isActive(_ id: String) -> Bool
    /// Loads the text of a `src` URI (`file:` resolved against the document's folder).
    func loadResource(_ uri: String) throws -> String
    /// Host functions registered on the machine, callable from expressions.
    var hostFunctions: [String: SCXMLHostFunction] { get }
    /// Host values registered on the machine, readable from expressions (read-only).
    var hostValues: [String: DataValue] { get }
    /// The Event I/O Processors this session can be reached through (`_ioprocessors`): each
    /// type URI or short name (`"scxml"`, `"basichttp"`) mapped to the session's location.
    var ioProcessors: [String: String] { get }
    /// Bounds for script engines (``SCXMLMachine/Options/scriptLimits``).
    var scriptLimits: SCXMLScriptLimits { get }
    /// What this session shares with the other sessions of its document tree.
    var documentTree: SCXMLDocumentTree { get }
}

extension SCXMLSessionServices {
    /// No host values.
    public var hostValues: [String: DataValue] { [:] }
    /// No Event I/O Processors.
    public var ioProcessors: [String: String] { [:] }
}

/// A Swift function a document's expressions may call by name.
public typealias SCXMLHostFunction = @Sendable ([DataValue]) throws -> DataValue

/// A datamodel: the expression language of a document's conditions and executable content
/// (SCXML 5 and Appendix B). The null datamodel ships with this module; the ECMAScript one is in
/// `StatechartECMAScript`; hosts may add their own and pass them to ``SCXMLMachine``.
///
/// A datamodel instance serves one session and is only called with the machine held, so it
/// needs no locking.
public protocol SCXMLDatamodel: AnyObject, SendableMetatype {
    /// The values of `<scxml datamodel>` this datamodel implements (e.g. `["null"]`).
    static var names: [String] { get }
    /// Checks, when the document is loaded, that everything it uses is supported; the
    /// diagnostics name the unsupported element (file:line:column).
    static func check(_ document: SCXMLDocument) -> [SCXMLDiagnostic]
    init(services: SCXMLSessionServices) throws

    /// Creates `<data>` of the whole document (early binding: `values` holds every `<datamodel>`;
    /// late binding: called again per state on its first entry). Errors raise `error.execution`.
    func initialize(_ data: [SCXMLData]) throws
    /// Late binding: creates the variables of `data` without values, at start; their values
    /// come from ``initialize(_:)`` when their state is first entered. Does nothing by default.
    func declare(_ data: [SCXMLData]) throws
    /// Runs the document's top-level `<script>` (once, at start).
    func runScript(_ script: SCXMLScript) throws
    /// Makes `event` the value of `_event`.
    func setEvent(_ event: SCXMLEvent)
    /// Makes an event that is only a name sent from outside (type `external`, no data, no ids)
    /// the value of `_event`. By default ``setEvent(_:)`` of such an `SCXMLEvent`; a datamodel
    /// that copies the fields anyway can bind the name alone.
    ///
    /// ```swift
    /// model.setExternalEvent(named: "coin")  // _event.name == "coin", _event.type == "external"
    /// ```
    func setExternalEvent(named name: String)
    /// Evaluates a condition (`cond`).
    func evaluateCondition(_ expression: String) throws -> Bool
    /// Prepares a condition the session evaluates again and again (a transition's `cond`), once
    /// per session and condition: the handle returned (0 or more) is passed to
    /// ``evaluateCondition(prepared:)`` instead of the text, so no evaluation looks the text up.
    /// `nil` (the default): nothing to prepare, the text goes to ``evaluateCondition(_:)``; a
    /// datamodel returns `nil` too for a text it cannot prepare (a syntax error), so each
    /// evaluation reports the error.
    ///
    /// ```swift
    /// if let handle = model.prepareCondition("n < 10") { try model.evaluateCondition(prepared: handle) }
    /// ```
    func prepareCondition(_ expression: String) -> Int?
    /// Evaluates the condition ``prepareCondition(_:)`` returned `handle` for, with the same
    /// value and errors as ``evaluateCondition(_:)`` of its text.
    func evaluateCondition(prepared handle: Int) throws -> Bool
    /// Evaluates a value expression (`expr`, `eventexpr`, ...).
    func evaluate(_ expression: String) throws -> DataValue
    /// Evaluates an expression where text is needed (`<log expr>`, `eventexpr`, `targetexpr`,
    /// `<invoke><content expr>`), with the language's own string conversion. By default
    /// ``evaluate(_:)``'s value rendered as text.
    func evaluateString(_ expression: String) throws -> String
    /// The message of `<log expr>`. By default ``evaluateString(_:)``; the null datamodel logs
    /// text that is no expression as it is, as Qt and uSCXML do.
    func logMessage(_ expression: String) throws -> String
    /// `<assign>`.
    func assign(_ location: String, _ value: SCXMLAssign.Value?) throws
    /// Prepares an `<assign>` the session runs again and again (one in a transition's or a
    /// state's content), once per session and element, as ``prepareCondition(_:)`` does a
    /// condition; the handle (0 or more) goes to ``assign(prepared:)``. `nil` (the default):
    /// nothing to prepare, the element goes to ``assign(_:_:)``.
    ///
    /// ```swift
    /// if let handle = model.prepareAssignment(node) { try model.assign(prepared: handle) }
    /// ```
    func prepareAssignment(_ assign: SCXMLAssign) -> Int?
    /// Runs the `<assign>` ``prepareAssignment(_:)`` returned `handle` for, with the same effect
    /// and errors as ``assign(_:_:)`` of its location and value.
    func assign(prepared handle: Int) throws
    /// Stores `value` at `location` (`idlocation`, `<foreach item>`).
    func store(_ value: DataValue, at location: String) throws
    /// The items of `<foreach array>`, a shallow copy.
    func items(of arrayExpression: String) throws -> [DataValue]
    /// The value of a location (`namelist`, `<param location>`).
    func value(at location: String) throws -> DataValue
    /// Evaluates `<content>`'s or `<data>`'s inline markup/text into a value.
    func value(ofInline content: SCXMLInlineContent) throws -> DataValue
    /// Runs a whole `<foreach>`: `body` once per item, after storing the item (and index).
    /// By default built on ``items(of:)`` and ``store(_:at:)``; datamodels whose values are
    /// richer than `DataValue` override it so items keep their identity.
    func foreach(_ node: SCXMLForeach, body: () throws -> Void) throws
    /// Charges `data`, the payload of an event a `<send>` is about to send, to the memory bound
    /// of this datamodel's scripts for as long as the event exists (queued, delayed, or being
    /// processed); throws when it does not fit, and the send fails with `error.execution`.
    /// Releasing the lease gives the bytes back. By default nothing is charged (`nil`).
    func chargePayload(_ data: DataValue) throws -> SCXMLPayloadLease?
}

/// Memory charged for an event's payload (``SCXMLDatamodel/chargePayload(_:)``), given back when
/// the last copy of the event is gone.
///
/// ```swift
/// let lease = SCXMLPayloadLease { budget.refund(bytes) }   // refunds when released
/// ```
public final class SCXMLPayloadLease: Sendable {
    private let refund: @Sendable () -> Void
    /// A lease that calls `refund` once, when it is released.
    public init(refund: @escaping @Sendable () -> Void) { self.refund = refund }
    deinit { refund() }
}

/// The lease an event carries; events compare and hash as if it were not there.
struct PayloadCharge: Sendable, Hashable {
    var lease: SCXMLPayloadLease?
    static func == (lhs: PayloadCharge, rhs: PayloadCharge) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

extension SCXMLDatamodel {
    /// Declares nothing (datamodels without variables).
    public func declare(_ data: [SCXMLData]) throws {}

    /// ``setEvent(_:)`` of `SCXMLEvent(name: name, type: .external)`.
    public func setExternalEvent(named name: String) {
        setEvent(SCXMLEvent(name: name, type: .external))
    }

    /// ``evaluate(_:)``'s value as text: strings as they are, numbers without a needless `.0`,
    /// arrays joined with commas, objects as `[object Object]`.
    public func evaluateString(_ expression: String) throws -> String {
        try evaluate(expression).scxmlString
    }

    /// ``evaluateString(_:)``.
    public func logMessage(_ expression: String) throws -> String {
        try evaluateString(expression)
    }

    /// Prepares nothing: conditions are evaluated by their text.
    public func prepareCondition(_ expression: String) -> Int? { nil }

    /// Never called: ``prepareCondition(_:)`` returns no handle.
    public func evaluateCondition(prepared handle: Int) throws -> Bool {
        throw SCXMLExecutionError("no prepared condition \(handle)")
    }

    /// Prepares nothing: assignments are run by their location and value.
    public func prepareAssignment(_ assign: SCXMLAssign) -> Int? { nil }

    /// Never called: ``prepareAssignment(_:)`` returns no handle.
    public func assign(prepared handle: Int) throws {
        throw SCXMLExecutionError("no prepared assignment \(handle)")
    }

    /// Charges nothing (datamodels whose values do not come from a bounded engine).
    public func chargePayload(_ data: DataValue) throws -> SCXMLPayloadLease? { nil }

    /// Iterates ``items(of:)``, storing each item (and its index) with ``store(_:at:)``.
    public func foreach(_ node: SCXMLForeach, body: () throws -> Void) throws {
        let items = try items(of: node.array)
        for (index, item) in items.enumerated() {
            try store(item, at: node.item)
            if let indexLocation = node.index { try store(.number(Double(index)), at: indexLocation) }
            try body()
        }
    }
}
