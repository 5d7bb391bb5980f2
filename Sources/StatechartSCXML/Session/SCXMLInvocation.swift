/// One running `<invoke>` of the SCXML type (SCXML 6.4): the child session and what the
/// invoking session needs to talk to it. Owned by the invoking session; touched with its
/// machine held.
final class SCXMLInvocation {
    /// The chart-level id of the `<invoke>` element (its state's id and position), which the
    /// machine uses to start and cancel it.
    let key: String
    /// The invoke id (`id`, or the generated `stateid.platformid` stored at `idlocation`).
    let invokeID: String
    /// The child session.
    let child: SCXMLMachine
    /// Whether external events are forwarded to the child (`autoforward="true"`).
    let autoforward: Bool
    /// `<finalize>`: run for each event the child returns, before it is processed.
    let finalize: SCXMLExecutableBlock?

    init(key: String, invokeID: String, child: SCXMLMachine, autoforward: Bool, finalize: SCXMLExecutableBlock?) {
        self.key = key
        self.invokeID = invokeID
        self.child = child
        self.autoforward = autoforward
        self.finalize = finalize
    }
}
