import Foundation
import Statechart

/// `<invoke>` of SCXML sessions (SCXML 6.4): started at the end of the macrostep that entered
/// its state, cancelled when the state is exited; the child talks to its parent through
/// `#_parent` and ends with `done.invoke.<id>`.
extension SCXMLSession {
    /// Starts one invocation: evaluates its attributes, loads the child document and starts the
    /// child on its own worker queue. Any error raises error.execution and starts nothing.
    func startInvocation(_ invoke: SCXMLInvoke, key: String, stateID: String, ctx: ActionContext) {
        do {
            let type = try invoke.type.map(string) ?? SCXMLEvent.scxmlProcessorType
            guard Self.processorTypes.contains(type) else {
                throw SCXMLExecutionError("<invoke> type '\(type)' is not supported (only SCXML sessions can be invoked)")
            }
            let invokeID: String
            switch invoke.id {
            case .literal(let id)?:
                invokeID = id
            case .location(let location)?:
                invokeID = generatedInvokeID(stateID)
                try datamodel.store(.string(invokeID), at: location)
            case nil:
                invokeID = generatedInvokeID(stateID)
            }
            let values = try namedValues(namelist: invoke.namelist, params: invoke.params)
            // Bounded before anything is loaded: a document that invokes itself would otherwise
            // nest sessions until memory runs out.
            guard invokeDepth < options.maximumInvokeDepth else {
                throw SCXMLExecutionError("invoking would nest sessions \(invokeDepth + 1) deep, more than the limit of \(options.maximumInvokeDepth) (SCXMLMachine.Options.maximumInvokeDepth); does the document invoke itself without end?")
            }
            guard tree.reserve(limit: options.maximumInvokedSessions) else {
                throw SCXMLExecutionError("\(options.maximumInvokedSessions) invoked sessions already run in this document tree, the limit (SCXMLMachine.Options.maximumInvokedSessions)")
            }
            let child: SCXMLMachine
            do {
                let (document, base) = try childDocument(invoke)
                child = try SCXMLMachine(document: document, baseURL: base, options: options,
                                         parent: ParentLink(session: self, invokeID: invokeID), invokeValues: values)
            } catch {
                tree.release()
                throw error
            }
            child.session.countsInTree = true
            // The child's <log> goes where the parent's goes, and so on down.
            let log = hooks.withLock { $0.log }
            child.session.setHooks { $0.log = log }
            invocations.append(SCXMLInvocation(key: key, invokeID: invokeID, child: child,
                                               autoforward: invoke.autoforward, finalize: invoke.finalize))
            installGate()   // autoforward and <finalize> run in it
            child.session.schedule {
                do { try child.start() } catch {
                    child.session.hooks.withLock { $0.log }?("error", "invoked session \(child.sessionID): \(error)")
                }
            }
        } catch {
            raiseError("error.execution", "<invoke> at \(invoke.sourceLocation): \(error)", ctx: ctx)
        }
    }

    /// `stateid.platformid` (SCXML 6.4.1), unique in the process.
    private func generatedInvokeID(_ stateID: String) -> String {
        invokeCounter += 1
        return "\(stateID).\(sessionID).\(invokeCounter)"
    }

    /// The child's document: `src`/`srcexpr` (a file), or `<content>` (a nested `<scxml>`, or
    /// markup from an expression).
    private func childDocument(_ invoke: SCXMLInvoke) throws -> (SCXMLDocument, URL?) {
        if let src = invoke.src {
            let (data, url) = try sourceAccess.read(try string(src), baseURL: baseURL)
            do {
                return (try SCXMLParser.parse(data: data, fileName: url.path, limits: options.parserLimits,
                                                  strict: options.strict),
                        url.deletingLastPathComponent())
            } catch {
                throw SCXMLExecutionError("cannot load the invoked document: \(error)")
            }
        }
        let markup: String
        switch invoke.content?.value {
        case .inline(.document(var document, _))?:
            document.nestingDepth = self.document.nestingDepth   // nested inside it, so no deeper
            return (document, baseURL)
        case .inline(let inline)?:
            markup = inline.rawText
        case .expression(let expression)?:
            markup = try datamodel.evaluateString(expression)
        case nil:
            throw SCXMLExecutionError("<invoke> has neither src, srcexpr nor <content>")
        }
        do {
            return (try SCXMLParser.parse(string: markup, fileName: "\(invoke.sourceLocation)<content>",
                                          limits: options.parserLimits, strict: options.strict), baseURL)
        } catch {
            throw SCXMLExecutionError("the invoked <content> is not an SCXML document: \(error)")
        }
    }

    /// Cancels the invocation `key` (its state was exited): later events from it are ignored,
    /// and the child is stopped (running its exit handlers) on its own queue.
    func cancelInvocation(key: String) {
        guard let index = invocations.firstIndex(where: { $0.key == key }) else { return }
        let invocation = invocations.remove(at: index)
        let child = invocation.child
        // Under the mailbox lock: the child's events are either in the mailbox already (and
        // processed) or arrive after this (and are dropped by deliver(_:from:)).
        mailbox.withLock { _ in child.session.cancelled.store(true, ordering: .releasing) }
        let stopping = self.stopping
        stopping.enter()
        let hostRuns = tree.hostRuns
        child.session.schedule {
            child.machine.stop()
            // Its own invocations, in turn (run by the host after this, when the host runs them).
            if !hostRuns { _ = child.session.stopping.wait(timeout: .now() + 5) }
            stopping.leave()
        }
    }

    /// The gate's part for invocations: runs `<finalize>` for events an active invocation
    /// returns, and forwards the event to the invocations with `autoforward`.
    func admitInvocationEvent(_ event: SCXMLEvent, ctx: ActionContext) -> Bool {
        if let tag = event.invocation, tag.parentSessionID == sessionID,
           let source = invocations.first(where: { $0.child.sessionID == tag.childSessionID }),
           let finalize = source.finalize, !finalize.actions.isEmpty {
            run(finalize.actions, ctx: ctx)
        }
        for invocation in invocations where invocation.autoforward {
            if !invocation.child.session.deliver(event) {
                raiseError("error.communication", "autoforward of '\(event.name)' to invocation '\(invocation.invokeID)': \(invocation.child.session.mailboxFullMessage)", ctx: ctx)
            }
        }
        return true
    }

    /// Sends `done.invoke.<id>` with the final state's `<donedata>` to the invoking session,
    /// after everything the child's exit handlers sent (run as the top-level final's last exit
    /// action, so a cancelled child, which never reaches it, sends nothing).
    func returnDoneEvent(from final: SCXMLState, ctx: ActionContext) {
        guard let parent, let parentSession = parent.session else { return }
        var data: DataValue?
        var isXML = false
        if let done = final.doneData {
            rememberEvent(ctx)
            (data, isXML) = (try? payload(namelist: [], params: done.params, content: done.content)) ?? (nil, false)
        }
        var event = SCXMLEvent(name: "done.invoke.\(parent.invokeID)", type: .external,
                               origin: "#_scxml_\(sessionID)", originType: SCXMLEvent.scxmlProcessorType,
                               invokeID: parent.invokeID, data: data, dataIsXML: isXML)
        event.invocation = InvocationTag(parentSessionID: parentSession.sessionID, childSessionID: sessionID)
        sendToParent(event)
    }
}
