import Synchronization

/// Bounds for datamodels that run a script engine (the ECMAScript datamodel of
/// `StatechartECMAScript`): how long one evaluation may run, and how much memory the engines of
/// one document tree may hold together. A script that passes a bound is stopped with an error,
/// which the session raises as `error.execution`; the machine stays usable.
///
/// ```swift
/// var options = SCXMLMachine.Options.withECMAScript
/// options.scriptLimits.timePerEvaluation = .milliseconds(250)
/// options.scriptLimits.memoryPerDocumentTree = 64 << 20
/// let machine = try SCXMLMachine(contentsOf: url, options: options)
/// ```
public struct SCXMLScriptLimits: Sendable, Hashable {
    /// How long one evaluation (a `cond`, an `expr`, a `<script>`, a `<foreach>` step, ...) may
    /// run before it is stopped; `nil`: no limit. Default: 1 second.
    public var timePerEvaluation: Duration? = .seconds(1)
    /// Bytes all script heaps of one document tree (a machine and the sessions its `<invoke>`s
    /// start, recursively) may hold together; 0: no limit. Default: 256 MiB.
    public var memoryPerDocumentTree: Int = 256 << 20

    /// The defaults: 1 second per evaluation, 256 MiB per document tree.
    public init() {}
}

/// What the sessions of one document tree share: the machine a host created and every session
/// its `<invoke>`s start, recursively. Datamodels keep tree-wide resources here (the ECMAScript
/// datamodel: the memory budget of its heaps). Thread-safe: sessions run on their own queues.
///
/// ```swift
/// let budget = services.documentTree.resource(MyBudget.self) { MyBudget(limit: 1 << 20) }
/// ```
public final class SCXMLDocumentTree: Sendable {
    private let resources = Mutex<[ObjectIdentifier: any Sendable]>([:])

    /// A tree with no resources yet (the SCXML runtime makes one per machine a host creates).
    public init() {}

    /// The tree's one resource of type `Resource`, made by `make` on first use.
    public func resource<Resource: Sendable>(_ type: Resource.Type, make: () throws -> Resource) rethrows -> Resource {
        try resources.withLock { resources in
            if let existing = resources[ObjectIdentifier(type)] as? Resource { return existing }
            let made = try make()
            resources[ObjectIdentifier(type)] = made
            return made
        }
    }
}
