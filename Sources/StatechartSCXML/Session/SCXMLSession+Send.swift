import Foundation
import Statechart

/// `<send>` (SCXML 6.2) and the SCXML Event I/O Processor's targets (C.1): the session itself,
/// `#_internal`, `#_parent`, `#_<invokeid>`, `#_scxml_<sessionid>`; BasicHTTP URLs (C.2); and
/// anything else the host's `onSend` hook accepts.
extension SCXMLSession {
    /// A new `sendid` for a `<send>` without `id`.
    func nextSendID() -> String {
        sendCounter += 1
        return "send.\(sessionID).\(sendCounter)"
    }

    struct SendFailure: Error {
        var name: String
        var message: String
        var sendID: String?

        static func communication(_ message: String, sendID: String?) -> SendFailure {
            SendFailure(name: "error.communication", message: message, sendID: sendID)
        }
    }

    func send(_ node: SCXMLSend, ctx: ActionContext) throws {
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
        let type = try node.type.map(string) ?? SCXMLEvent.scxmlProcessorType
        var delay = Duration.zero
        if let delaySource = node.delay {
            let text = try string(delaySource)
            guard let parsed = SCXMLTime.parseDelay(text) else {
                throw SendFailure(name: "error.execution", message: "<send> delay '\(text)' is not a CSS2 time such as '1s' or '500ms'", sendID: sendID)
            }
            delay = parsed
        }
        let (data, isXML) = try payload(namelist: node.namelist, params: node.params, content: node.content)
        guard Self.processorTypes.contains(type) || Self.basicHTTPTypes.contains(type) else {
            throw SendFailure(name: "error.execution", message: "<send> type '\(type)' is not supported (use the SCXML or BasicHTTP Event I/O Processor)", sendID: sendID)
        }
        var event = SCXMLEvent(name: name, type: .external, sendID: node.id == nil ? nil : sendID,
                               origin: "#_scxml_\(sessionID)", originType: SCXMLEvent.scxmlProcessorType,
                               data: data, dataIsXML: isXML)
        if let data { event.payloadCharge.lease = try datamodel.chargePayload(data) }
        if delay > .zero {
            _ = try route(target, type: type, sendID: sendID)   // report a bad target now
            if isOwnSession(target) && !Self.basicHTTPTypes.contains(type) {
                _ = ctx.send(Event(name, payload: event), after: delay, id: sendID)
            } else {
                installGate()   // it performs the send when the event comes back
                let deferred = DeferredSend(event: event, target: target, type: type)
                _ = ctx.send(Event(Self.deferredName, payload: deferred), after: delay, id: sendID)
            }
        } else {
            try deliver(event, to: target, type: type, ctx: ctx, immediate: false)
        }
        reportOutgoing(SCXMLOutgoingEvent(name: name, kind: .sent(target: target, type: type, delay: delay),
                                          origin: contentOrigin))
    }

    private func isOwnSession(_ target: String?) -> Bool {
        target == nil || target == "#_scxml_\(sessionID)"
    }

    /// Where a `<send>` goes.
    enum SendRoute {
        case own
        case internalQueue
        case parent(SCXMLSession, invokeID: String)
        case invoked(SCXMLInvocation)
        case session(SCXMLSession)
        case http(BasicHTTPClient.Target)
        case host(String)
    }

    func route(_ target: String?, type: String, sendID: String?) throws -> SendRoute {
        if Self.basicHTTPTypes.contains(type) {
            guard let target else {
                throw SendFailure.communication("<send type=\"\(type)\"> needs an http:// target URL", sendID: sendID)
            }
            do {
                return .http(try BasicHTTPClient.Target(target, access: options.httpHosts))
            } catch {
                throw SendFailure.communication("<send type=\"\(type)\"> to '\(target)': \(error)", sendID: sendID)
            }
        }
        guard let target else { return .own }
        switch target {
        case "#_scxml_\(sessionID)": return .own
        case "#_internal": return .internalQueue
        case "#_parent":
            guard let parent, let session = parent.session else {
                // Not invoked by a session: the host that runs this machine is its parent.
                if hooks.withLock({ $0.send }) != nil { return .host(target) }
                throw SendFailure.communication("<send target=\"#_parent\">: this session was not invoked by another one and the host set no onSend handler", sendID: sendID)
            }
            return .parent(session, invokeID: parent.invokeID)
        default:
            break
        }
        if target.hasPrefix("#_scxml_") {
            guard let session = SessionRegistry.shared.session(String(target.dropFirst(8))) else {
                throw SendFailure.communication("<send target=\"\(target)\">: no such session", sendID: sendID)
            }
            return .session(session)
        }
        if target.hasPrefix("#_") {
            let invokeID = String(target.dropFirst(2))
            guard let invocation = invocations.first(where: { $0.invokeID == invokeID }) else {
                throw SendFailure.communication("<send target=\"\(target)\">: no active invocation '\(invokeID)'", sendID: sendID)
            }
            return .invoked(invocation)
        }
        if target.contains(":") { return .host(target) }
        throw SendFailure(name: "error.execution", message: "<send> target '\(target)' is not a valid target URI", sendID: sendID)
    }

    /// Sends `event` now. `immediate` is false inside executable content (errors are raised by
    /// the caller) and true for deferred sends (from the gate).
    func deliver(_ event: SCXMLEvent, to target: String?, type: String, ctx: ActionContext, immediate: Bool) throws {
        let sendID = event.sendID
        switch try route(target, type: type, sendID: sendID) {
        case .own:
            sendToSelf(event, ctx: ctx)
        case .internalQueue:
            var raised = event
            raised.type = .internal
            if immediate { sendToSelf(raised, ctx: ctx) } else { ctx.raise(Event(raised.name, payload: raised)) }
        case .parent(let parent, let invokeID):
            var outgoing = event
            outgoing.invokeID = invokeID
            outgoing.invocation = InvocationTag(parentSessionID: parent.sessionID, childSessionID: sessionID)
            sendToParent(outgoing)
        case .invoked(let invocation):
            guard invocation.child.session.deliver(event) else {
                throw SendFailure.communication("<send> to '\(target ?? "")': \(invocation.child.session.mailboxFullMessage)", sendID: sendID)
            }
        case .session(let session):
            guard session.deliver(event) else {
                throw SendFailure.communication("<send> to '\(target ?? "")': \(session.mailboxFullMessage)", sendID: sendID)
            }
        case .http(let target):
            try sendHTTP(event, to: target, ctx: ctx)
        case .host(let target):
            guard let handler = hooks.withLock({ $0.send }), handler(event, target, type) else {
                throw SendFailure.communication("<send> target '\(target)' cannot be reached", sendID: sendID)
            }
        }
    }

    /// BasicHTTP (C.2): a POST of the event as form parameters. A send to this process's own
    /// server waits for the answer, so the event reaches its session before anything the
    /// sender does next; other servers are contacted on a background thread, and a failure
    /// comes back as `error.communication`.
    private func sendHTTP(_ event: SCXMLEvent, to url: BasicHTTPClient.Target, ctx: ActionContext) throws {
        let request = BasicHTTPClient.Request(target: url, event: event)
        if BasicHTTPServer.shared.isLocal(url) {
            do { try BasicHTTPClient.post(request) } catch {
                throw SendFailure.communication("<send> to \(url): \(error)", sendID: event.sendID)
            }
            // Posted to this session itself, the event is in its mailbox now: moved to the
            // external queue at once, as a send to itself would be, it runs after this
            // macrostep rather than whenever the worker's poke gets the machine (before or
            // after the host's next event: `trace` raced).
            moveMailbox(ctx)
            return
        }
        let sendID = event.sendID
        do {
            try BasicHTTPClient.postInBackground(request) { [weak self] error in
                self?.deliver(SCXMLEvent(name: "error.communication", type: .platform, sendID: sendID,
                                         data: .string("<send> to \(url): \(error)")))
            }
        } catch {
            throw SendFailure.communication("<send> to \(url): \(error)", sendID: sendID)
        }
    }
}
