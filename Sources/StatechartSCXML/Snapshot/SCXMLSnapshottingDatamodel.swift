import Statechart

/// A datamodel whose variables can be captured in an ``SCXMLSnapshot`` and restored.
///
/// ```swift
/// extension MyDatamodel: SCXMLSnapshottingDatamodel {
///     func snapshotVariables() throws -> [SCXMLSnapshot.Variable] { variables.map { .init(name: $0, value: $1) } }
///     func restoreVariables(_ variables: [SCXMLSnapshot.Variable]) throws { ... }
/// }
/// ```
/// Both are called with the machine held, between macrosteps.
public protocol SCXMLSnapshottingDatamodel: SCXMLDatamodel {
    /// Every variable the document has made (not system variables, host values or host
    /// functions), sorted by name.
    /// - Throws: ``SCXMLSnapshotError/unrepresentableValue(variable:path:reason:)`` for a value
    ///   the snapshot cannot hold.
    func snapshotVariables() throws -> [SCXMLSnapshot.Variable]
    /// Declares `variables` in a datamodel that has run nothing yet.
    func restoreVariables(_ variables: [SCXMLSnapshot.Variable]) throws
}

extension NullDatamodel: SCXMLSnapshottingDatamodel {
    /// The null datamodel has no variables.
    public func snapshotVariables() throws -> [SCXMLSnapshot.Variable] { [] }

    /// Accepts only an empty list: the null datamodel has no variables.
    public func restoreVariables(_ variables: [SCXMLSnapshot.Variable]) throws {
        if let first = variables.first {
            throw SCXMLSnapshotError.malformed("the null datamodel has no variables, but the snapshot has '\(first.name)'")
        }
    }
}
