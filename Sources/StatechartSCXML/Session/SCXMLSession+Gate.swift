import Statechart

// The machine's external-event gate, installed the first time the session has work for it.

extension SCXMLSession {
    /// Installs the external-event gate unless it is already installed. Any thread; from one
    /// that holds no machine, or from this machine's own callbacks. The flag is set once the
    /// gate is in place: a caller holding the machine while another thread waits for it to
    /// install the gate installs it itself (installing twice is harmless).
    func installGate() {
        guard !gateInstalled.load(ordering: .acquiring), let machine else { return }
        machine.setExternalEventGate { [self] ctx in
            // A host's event sent by name has nothing for the gate to do unless events wait in
            // the mailbox or an invocation forwards events.
            if ctx.eventFlags & SCXMLEvent.bareExternalFlag != 0 && !invocations.contains(where: \.autoforward)
                && mailbox.withLock({ $0.isEmpty }) {
                return true
            }
            return admit(ctx)
        }
        gateInstalled.store(true, ordering: .releasing)
    }
}
