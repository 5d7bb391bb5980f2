// The host's callbacks (`<log>`, sends to unknown targets, outgoing events), and the copies
// content uses without taking their lock until they change.

extension SCXMLSession {
    /// Host callbacks; set from any thread, read while running content.
    struct Hooks {
        var log: (@Sendable (_ label: String?, _ message: String) -> Void)?
        /// Delivers an event to a target outside this machine; false when the target is unknown.
        var send: (@Sendable (_ event: SCXMLEvent, _ target: String, _ type: String?) -> Bool)?
        /// Told of each event the content raises or sends (``SCXMLMachine/onOutgoingEvent(_:)``).
        var outgoing: (@Sendable (SCXMLOutgoingEvent) -> Void)?
    }

    /// Changes the hooks (any thread).
    func setHooks(_ change: (inout Hooks) -> Void) {
        hooks.withLock { change(&$0) }
        hooksVersion.add(1, ordering: .releasing)
    }

    /// Calls the log hook, if any. With the machine held (executable content): the copy is
    /// only touched there.
    // Inlined into the `<log>` closures (one call fewer per `<log>`); the copy's refresh,
    // rare, stays out of line.
    @inline(__always)
    func log(_ label: String?, _ message: String) {
        let version = hooksVersion.load(ordering: .acquiring)
        if version != logCopyVersion { refreshLogCopy(version) }
        logCopyReference?._withUnsafeGuaranteedRef { $0.call(label, message) }
    }

    @inline(never)
    private func refreshLogCopy(_ version: UInt) {
        // Copied out into a local: returned as the result of `withLock` (generic), a
        // closure would be wrapped in a reabstraction thunk, an allocation per call.
        var handler: (@Sendable (_ label: String?, _ message: String) -> Void)?
        hooks.withLock { handler = $0.log }
        logCopy = handler.map(LogHook.init)
        logCopyReference = logCopy.map(Unmanaged.passUnretained)
        logCopyVersion = version
    }

    /// The log hook in a box of its own. Called through an unretained reference to the box
    /// (`logCopyReference`), whose `let` the call borrows, it counts no references; a closure
    /// read from a `var` would be retained and released around every `<log>`.
    final class LogHook: Sendable {
        let call: @Sendable (_ label: String?, _ message: String) -> Void
        init(_ call: @escaping @Sendable (_ label: String?, _ message: String) -> Void) { self.call = call }
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
}
