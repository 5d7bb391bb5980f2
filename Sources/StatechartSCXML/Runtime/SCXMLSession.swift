import Foundation
import Statechart
import Synchronization

/// The per-machine state of an SCXML document at run time: its datamodel, ids, hooks, and the
/// interpreter of executable content. Every method runs with the machine held (inside guards and
/// actions, or before start), which is what makes the unchecked Sendable conformance sound.
final class SCXMLSession: SCXMLSessionServices, @unchecked Sendable {
    let document: SCXMLDocument
    let baseURL: URL?
    let sessionID: String
    var name: String? { document.name }
    var hostFunctions: [String: SCXMLHostFunction]
    var datamodel: SCXMLDatamodel!
    weak var machine: Machine?

    /// Host callbacks; set from any thread, read while running content.
    struct Hooks {
        var log: (@Sendable (_ label: String?, _ message: String) -> Void)?
        /// Delivers an event to a target outside this machine; false when the target is unknown.
        var send: (@Sendable (_ event: SCXMLEvent, _ target: String, _ type: String?) -> Bool)?
    }
    let hooks = Mutex(Hooks())

    private var lastEvent: SCXMLEvent?
    private var sendCounter = 0
    private var initializedStates: Set<String> = []

    static let processorTypes: Set<String> = [
        SCXMLEvent.scxmlProcessorType, "scxml", "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml",
    ]

    init(document: SCXMLDocument, baseURL: URL?, sessionID: String, hostFunctions: [String: SCXMLHostFunction]) {
        self.document = document
        self.baseURL = baseURL
        self.sessionID = sessionID
        self.hostFunctions = hostFunctions
    }

    func isActive(_ id: String) -> Bool { machine?.isActive(id) ?? false }

    func loadResource(_ uri: String) throws -> String {
        let url: URL
        if uri.hasPrefix("file:") {
            let path = String(uri.dropFirst(5))
            url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
                : (baseURL?.appendingPathComponent(path) ?? URL(fileURLWithPath: path))
        } else if let absolute = URL(string: uri), absolute.scheme != nil {
            throw SCXMLExecutionError("cannot load '\(uri)': only file: URIs are supported")
        } else {
            url = baseURL?.appendingPathComponent(uri) ?? URL(fileURLWithPath: uri)
        }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw SCXMLExecutionError("cannot load '\(uri)' (\(url.path)): \(error.localizedDescription)")
        }
    }

    // MARK: - Errors and events

    func raiseError(_ name: String, _ message: String, ctx: ActionContext, sendID: String? = nil) {
        ctx.raise(Event(name, payload: SCXMLEvent(name: name, type: .platform, sendID: sendID, data: .string(message))))
    }

    /// Keeps `_event` current: the datamodel sees the event of the microstep being run.
    func prepare(_ ctx: ActionContext) {
        guard let event = ctx.event else { return }
        let scxml = SCXMLEvent(event)
        if scxml != lastEvent {
            lastEvent = scxml
            datamodel.setEvent(scxml)
        }
    }

    // MARK: - Conditions and blocks

    func condition(_ cond: String, ctx: ActionContext) -> Bool {
        prepare(ctx)
        do {
            return try datamodel.evaluateCondition(cond)
        } catch {
            raiseError("error.execution", "cond=\"\(cond)\": \(error)", ctx: ctx)
            return false
        }
    }

    /// Runs one block of executable content; an error stops the block and raises error.execution.
    func run(_ actions: [SCXMLExecutable], ctx: ActionContext) {
        prepare(ctx)
        do {
            for action in actions { try execute(action, ctx: ctx) }
        } catch let error as SendFailure {
            raiseError(error.name, error.message, ctx: ctx, sendID: error.sendID)
        } catch {
            raiseError("error.execution", "\(error)", ctx: ctx)
        }
    }

    /// interpret(): create the datamodel's data (all of it with early binding, the top level's
    /// with late binding) and run the top-level script; failures raise error.execution.
    func startUp(ctx: ActionContext) {
        var blocks = [document.datamodelElement]
        if document.binding == .early { blocks += document.allStates.map(\.datamodelElement) }
        for data in blocks.compactMap({ $0 }) {
            do { try datamodel.initialize(data.data) } catch { raiseError("error.execution", "\(error)", ctx: ctx) }
        }
        if let script = document.script {
            do { try datamodel.runScript(script) } catch { raiseError("error.execution", "\(error)", ctx: ctx) }
        }
    }

    /// Late binding: a state's `<data>` is created when the state is first entered.
    func initializeLateData(of state: SCXMLState, ctx: ActionContext) {
        guard let data = state.datamodelElement?.data, !data.isEmpty, !initializedStates.contains(state.id) else { return }
        initializedStates.insert(state.id)
        do {
            try datamodel.initialize(data)
        } catch {
            raiseError("error.execution", "\(error)", ctx: ctx)
        }
    }

    private func string(_ source: SCXMLValueSource) throws -> String {
        switch source {
        case .literal(let text): return text
        case .expression(let expression): return try datamodel.evaluate(expression).scxmlString
        }
    }

    private func execute(_ action: SCXMLExecutable, ctx: ActionContext) throws {
        switch action {
        case .raise(let node):
            ctx.raise(Event(node.event, payload: SCXMLEvent(name: node.event, type: .internal)))
        case .if(let node):
            for branch in node.branches {
                if let cond = branch.cond {
                    let holds: Bool
                    do { holds = try datamodel.evaluateCondition(cond) } catch {
                        throw SCXMLExecutionError("<if cond=\"\(cond)\"> at \(branch.sourceLocation): \(error)")
                    }
                    if !holds { continue }
                }
                for inner in branch.actions { try execute(inner, ctx: ctx) }
                break
            }
        case .foreach(let node):
            let items = try datamodel.items(of: node.array)
            for (index, item) in items.enumerated() {
                try datamodel.store(item, at: node.item)
                if let indexLocation = node.index { try datamodel.store(.number(Double(index)), at: indexLocation) }
                for inner in node.actions { try execute(inner, ctx: ctx) }
            }
        case .log(let node):
            let message = try node.expr.map { try datamodel.evaluate($0).scxmlString } ?? ""
            hooks.withLock { $0.log }?(node.label, message)
        case .assign(let node):
            try datamodel.assign(node.location, node.value)
        case .script(let node):
            try datamodel.runScript(node)
        case .send(let node):
            try send(node, ctx: ctx)
        case .cancel(let node):
            ctx.cancel(sendID: try string(node.sendID))
        }
    }

    // MARK: - <send>

    struct SendFailure: Error {
        var name: String
        var message: String
        var sendID: String?
    }

    func nextSendID() -> String {
        sendCounter += 1
        return "send.\(sessionID).\(sendCounter)"
    }

    /// The event data of `<send>`/`<donedata>`: namelist and params as an object, or content.
    func payload(namelist: [String], params: [SCXMLParam], content: SCXMLContent?) throws -> DataValue? {
        if let content {
            switch content.value {
            case .expression(let expression)?: return try datamodel.evaluate(expression)
            case .inline(let inline)?: return try datamodel.value(ofInline: inline)
            case nil: return nil
            }
        }
        if namelist.isEmpty && params.isEmpty { return nil }
        var object: [String: DataValue] = [:]
        for name in namelist { object[name] = try datamodel.value(at: name) }
        for param in params {
            switch param.value {
            case .expression(let expression)?: object[param.name] = try datamodel.evaluate(expression)
            case .location(let location)?: object[param.name] = try datamodel.value(at: location)
            case nil: object[param.name] = .null
            }
        }
        return .object(object)
    }

    private func send(_ node: SCXMLSend, ctx: ActionContext) throws {
        // Evaluate everything first: an error here is error.execution and nothing is sent.
        let sendID: String
        switch node.id {
        case .literal(let id)?: sendID = id
        case .location(let location)?:
            sendID = nextSendID()
            try datamodel.store(.string(sendID), at: location)
        case nil: sendID = nextSendID()
        }
        let name = try node.event.map(string) ?? ""
        let target = try node.target.map(string)
        let type = try node.type.map(string)
        var delay = Duration.zero
        if let delaySource = node.delay {
            let text = try string(delaySource)
            guard let parsed = SCXMLTime.parseDelay(text) else {
                throw SendFailure(name: "error.execution", message: "<send> delay '\(text)' is not a CSS2 time such as '1s' or '500ms'", sendID: sendID)
            }
            delay = parsed
        }
        let data = try payload(namelist: node.namelist, params: node.params, content: node.content)
        if let type, !Self.processorTypes.contains(type) {
            throw SendFailure(name: "error.execution", message: "<send> type '\(type)' is not supported", sendID: sendID)
        }
        let event = SCXMLEvent(name: name, type: .external, sendID: node.id == nil ? nil : sendID,
                               origin: "#_scxml_\(sessionID)", originType: SCXMLEvent.scxmlProcessorType, data: data)
        switch target {
        case nil, "#_scxml_\(sessionID)"?:
            let coreEvent = Event(name, payload: event)
            if delay > .zero { _ = ctx.send(coreEvent, after: delay, id: sendID) } else { ctx.send(coreEvent) }
        case "#_internal"?:
            var raised = event
            raised.type = .internal
            ctx.raise(Event(name, payload: raised))
        case let target?:
            if target.hasPrefix("#_scxml_") || target.hasPrefix("#_") || target.contains(":") {
                guard let handler = hooks.withLock({ $0.send }), handler(event, target, type) else {
                    throw SendFailure(name: "error.communication", message: "<send> target '\(target)' cannot be reached", sendID: sendID)
                }
            } else {
                throw SendFailure(name: "error.execution", message: "<send> target '\(target)' is not a valid target URI", sendID: sendID)
            }
        }
    }
}

extension DataValue {
    /// How SCXML renders a value where a string is needed (event names, targets, logs).
    var scxmlString: String {
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
