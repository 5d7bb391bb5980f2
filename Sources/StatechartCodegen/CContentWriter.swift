import CStateCore
import Statechart
import StatechartSCXML

/// Compiles the null datamodel's executable content and conditions to C statements.
///
/// What each element becomes (the firmware implements the hooks declared in the header):
/// - `<raise event>`: `sc_machine_raise`; `<send>` to the machine itself (no target, or
///   `#_internal`) without a delay: `sc_machine_post` (`sc_machine_raise` for `#_internal`),
///   the event flagged `NAME_SENT_FLAG`.
/// - `<send delay>`: `NAME_timer_start(...)`; `<cancel>`: `NAME_timer_cancel(...)`.
/// - `<log>`: `NAME_log(context, label, message)`.
/// - `<script>` (inline): `NAME_script(context, machine, NAME_SCRIPT_<k>, event)`; a negative
///   result is an error (`error.execution`, rest of the block skipped).
/// - `<if>/<elseif>/<else>` and `cond`: `In()` and its combinations (``NullCondition``) as
///   `sc_machine_is_active` calls; literals by their truth; a host function call such as
///   `isReady()` as `NAME_condition(context, machine, NAME_CONDITION_isReady, event)`, whose
///   negative result is an error: `error.execution` is raised and the rest of the block skipped,
///   as the Swift engine does when an expression fails.
///
/// The status of `sc_machine_raise`/`sc_machine_post` is not tested (`(void)`): an event a full
/// queue refuses is reported by the core itself, which makes the `sc_machine_start`,
/// `sc_machine_dispatch` or `sc_machine_run` running the macrostep return `SC_ERR_QUEUE_FULL`
/// once it is over (sc_core.h, `sc_machine_raise`), so the firmware's caller hears of it.
///
/// Each `<onentry>`/`<onexit>` block is a `do { ... } while (0)` so an error leaves only that block.
/// Content that has no C form (a `<send>` to another target or with an expression the generator
/// cannot evaluate, a `<log expr>` calling a host function) is an error with its position.
struct CContentWriter {
    let compiled: CompiledChart
    let names: CChartNames
    let prefix: String
    private(set) var errors: [SCXMLDiagnostic] = []
    private(set) var usesLog = false
    private(set) var usesTimers = false
    /// Host functions called as conditions: C name and function name, in order of first use.
    private(set) var conditionHooks: [(cName: String, function: String)] = []
    private var conditionTable = CNameTable()
    /// Inline `<script>`s, each a `NAME_SCRIPT_<k>` passed to the `NAME_script` hook.
    private(set) var scriptHooks: [(cName: String, location: SCXMLSourceLocation, code: String)] = []
    private var temporaries = 0

    init(compiled: CompiledChart, names: CChartNames) {
        self.compiled = compiled
        self.names = names
        self.prefix = names.prefix
        conditionTable.reserve("\(names.prefix)_CONDITION_COUNT")
    }

    private static let processorTypes: Set<String> = [
        SCXMLEvent.scxmlProcessorType, "scxml", "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml",
    ]

    mutating func fail(_ location: SCXMLSourceLocation, _ element: String, _ message: String) {
        errors.append(SCXMLDiagnostic(location: location, element: element, message: message))
    }

    // MARK: - Conditions

    /// The C expression of a condition with no host call, or `nil` for a host call.
    func expression(_ condition: NullCondition) -> String {
        switch condition {
        case .constant(let value): return value ? "true" : "false"
        case .inState(let id):
            guard let index = compiled.index(of: id) else { return "false /* In('\(CText.comment(id))'): no such state */" }
            return "sc_machine_is_active(machine, \(names.states[index]))"
        case .not(let inner): return "!" + expression(inner)
        case .and(let a, let b): return "(\(expression(a)) && \(expression(b)))"
        case .or(let a, let b): return "(\(expression(a)) || \(expression(b)))"
        }
    }

    enum Condition {
        case expression(String)
        case hook(String)     // the NAME_CONDITION_ enum constant
    }

    /// Parses `cond` (the validator has accepted it) into a C expression or a hook call.
    mutating func condition(_ cond: String, _ location: SCXMLSourceLocation, _ element: String) -> Condition {
        guard let parsed = NullExpression(cond) else {
            fail(location, element, "cond=\"\(cond)\" is not a null-datamodel condition")
            return .expression("false")
        }
        if let known = parsed.staticCondition { return .expression(expression(known)) }
        guard case .call(let function, _) = parsed else { return .expression("false") }
        if let existing = conditionHooks.first(where: { $0.function == function }) { return .hook(existing.cName) }
        let cName = conditionTable.unique("\(prefix)_CONDITION_", function)
        conditionHooks.append((cName, function))
        return .hook(cName)
    }

    var errorEvent: String { names.eventExpression("error.execution", in: compiled) }

    /// The body of `case GUARD:` in `NAME_guard`.
    mutating func guardCase(_ cond: String, _ location: SCXMLSourceLocation) -> [String] {
        switch condition(cond, location, "transition") {
        case .expression(let c):
            return ["return \(c);"]
        case .hook(let hook):
            return ["{",
                    "    int holds = \(prefix)_condition(context, machine, \(hook), event);",
                    "    if (holds < 0) (void)sc_machine_raise(machine, (sc_event){ .id = \(errorEvent) });",
                    "    return holds > 0;",
                    "}"]
        }
    }

    // MARK: - Executable content

    /// One block (`<onentry>`, `<onexit>`, transition content) as C lines.
    mutating func block(_ actions: [SCXMLExecutable], comment: String) -> [String] {
        var lines = ["do { /* \(CText.comment(comment)) */"]
        for action in actions { lines += statements(action).map { "    " + $0 } }
        lines.append("} while (0);")
        return lines
    }

    /// The value of a `...`/`...expr` attribute the generator can compute now: a literal, or an
    /// expression that is a literal (`eventexpr="'done'"`).
    private mutating func constant(_ source: SCXMLValueSource?, _ location: SCXMLSourceLocation,
                                   _ element: String, _ attribute: String) -> String? {
        switch source {
        case nil: return nil
        case .literal(let text)?: return text
        case .expression(let text)?:
            if case .literal(let value)? = NullExpression(text) { return value.scxmlString }
            fail(location, element, "\(attribute)expr=\"\(text)\" has no C form: generated C evaluates only literal expressions here")
            return nil
        }
    }

    private mutating func statements(_ action: SCXMLExecutable) -> [String] {
        switch action {
        case .raise(let node):
            return ["(void)sc_machine_raise(machine, (sc_event){ .id = \(names.eventExpression(node.event, in: compiled)) });"]
        case .log(let node):
            usesLog = true
            let label = node.label.map(CText.literal) ?? "NULL"
            guard let expr = node.expr else { return ["\(prefix)_log(context, \(label), \"\");"] }
            guard let parsed = NullExpression(expr) else {
                // The text itself, as NullDatamodel.logMessage logs it (the load warned).
                return ["\(prefix)_log(context, \(label), \(CText.literal(expr)));"]
            }
            if case .literal(let value) = parsed {
                return ["\(prefix)_log(context, \(label), \(CText.literal(value.scxmlString)));"]
            }
            if case .call(let function, _) = parsed, function != "In" {
                fail(node.sourceLocation, "log", "expr=\"\(expr)\" calls the host function '\(function)', which generated C cannot call for a <log>; log a literal or an In() condition")
                return []
            }
            guard let condition = parsed.staticCondition else { return [] }
            return ["\(prefix)_log(context, \(label), \(expression(condition)) ? \"true\" : \"false\");"]
        case .if(let node):
            return branches(node.branches[...])
        case .send(let node):
            return send(node)
        case .cancel(let node):
            guard let id = constant(node.sendID, node.sourceLocation, "cancel", "sendid") else { return [] }
            usesTimers = true
            return ["\(prefix)_timer_cancel(context, machine, \(CText.literal(id)));"]
        case .script(let node):
            guard case .inline(let code) = node.source else { return [] }   // src: refused by the check
            let cName = "\(prefix)_SCRIPT_\(scriptHooks.count + 1)"
            scriptHooks.append((cName, node.sourceLocation, code))
            return ["if (\(prefix)_script(context, machine, \(cName), event) < 0) {",
                    "    (void)sc_machine_raise(machine, (sc_event){ .id = \(errorEvent) });",
                    "    break;",
                    "}"]
        case .foreach, .assign:
            // The null datamodel's check rejects these before generation.
            fail(action.sourceLocation, action.elementName, "<\(action.elementName)> has no C form in the null datamodel")
            return []
        }
    }

    /// `<if>` branches from `rest`: a hook condition is evaluated first into a temporary, so an
    /// error can leave the block (`break` out of its `do { } while (0)`).
    private mutating func branches(_ rest: ArraySlice<SCXMLIf.Branch>) -> [String] {
        guard let branch = rest.first else { return [] }
        var body: [String] = []
        for action in branch.actions { body += statements(action).map { "    " + $0 } }
        guard let cond = branch.cond else {
            return ["{"] + body + ["}"]    // <else>
        }
        let element = rest.startIndex == 0 ? "if" : "elseif"
        let elseLines = branches(rest.dropFirst())
        let tail: [String] = elseLines.isEmpty ? ["}"] : ["} else {"] + elseLines.map { "    " + $0 } + ["}"]
        switch condition(cond, branch.sourceLocation, element) {
        case .expression(let c):
            return ["if (\(c)) {"] + body + tail
        case .hook(let hook):
            temporaries += 1
            let t = "holds\(temporaries)"
            return ["{",
                    "    int \(t) = \(prefix)_condition(context, machine, \(hook), event);",
                    "    if (\(t) < 0) { (void)sc_machine_raise(machine, (sc_event){ .id = \(errorEvent) }); break; }",
                    "    if (\(t) > 0) {"] + body.map { "    " + $0 } + tail.map { "    " + $0 } + ["}"]
        }
    }

    private mutating func send(_ node: SCXMLSend) -> [String] {
        let location = node.sourceLocation
        let before = errors.count
        let name = constant(node.event, location, "send", "event") ?? ""
        let target = constant(node.target, location, "send", "target")
        let type = constant(node.type, location, "send", "type")
        let delayText = constant(node.delay, location, "send", "delay")
        if let type, !Self.processorTypes.contains(type) {
            fail(location, "send", "<send type=\"\(type)\"> has no C form: generated C sends only to the machine itself (the SCXML Event I/O Processor)")
        }
        if let target, target != "#_internal" {
            fail(location, "send", "<send target=\"\(target)\"> has no C form: generated C sends only to the machine itself (no target, or '#_internal')")
        }
        var milliseconds: UInt64 = 0
        if let delayText {
            if let delay = SCXMLTime.parseDelay(delayText) {
                let (seconds, attoseconds) = delay.components
                let ms = Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded(.up)
                if ms > Double(UInt32.max) {
                    fail(location, "send", "delay=\"\(delayText)\" is longer than the timer hook's 32-bit millisecond count")
                }
                milliseconds = UInt64(max(0, min(ms, Double(UInt32.max))))
            } else {
                fail(location, "send", "delay=\"\(delayText)\" is not a CSS2 time such as '1s' or '500ms'")
            }
        }
        guard errors.count == before else { return [] }
        let event = "(sc_event){ .id = \(names.eventExpression(name, in: compiled)) }"
        if target == "#_internal" { return ["(void)sc_machine_raise(machine, \(event));"] }
        if milliseconds == 0 {
            let sent = "(sc_event){ .id = \(names.eventExpression(name, in: compiled)), .flags = \(prefix)_SENT_FLAG }"
            return ["(void)sc_machine_post(machine, \(sent));"]
        }
        usesTimers = true
        var id = "NULL"
        if case .literal(let text)? = node.id { id = CText.literal(text) }
        return ["\(prefix)_timer_start(context, machine, \(id), \(event), \(milliseconds)u);"]
    }
}
