import Statechart

/// Why an SCXML session could not be snapshotted or restored.
///
/// ```swift
/// do { try machine.snapshot() } catch let error as SCXMLSnapshotError { print(error) }
/// ```
public enum SCXMLSnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A datamodel variable holds a value JSON cannot represent (a function, a cycle, a
    /// shared object, `undefined` or a non-finite number inside data, a `Date` or DOM node):
    /// `path` is where (`user.tags[2]`), `reason` what it is.
    case unrepresentableValue(variable: String, path: String, reason: String)
    /// An active state has an `<invoke>`: invoked sessions are not captured.
    case invocationActive(state: String, invokeID: String?)
    /// The datamodel cannot export or import its variables (it does not conform to
    /// ``SCXMLSnapshottingDatamodel``).
    case datamodelNotSnapshottable(String)
    /// A queued event's payload is not an SCXML event or data.
    case unencodableEvent(String)
    /// The snapshot was taken of another document.
    case differentDocument(expected: SCXMLDocumentFingerprint, found: SCXMLDocumentFingerprint)
    /// The snapshot was taken with another datamodel.
    case differentDatamodel(expected: String, found: String)
    /// The snapshot's format version is not one this library reads.
    case unsupportedVersion(Int)
    /// Restoring needs a machine that has not been started.
    case alreadyStarted
    /// A snapshot event or variable is malformed (edited by hand or damaged).
    case malformed(String)

    /// A sentence saying what went wrong and what would be right.
    public var description: String {
        switch self {
        case .unrepresentableValue(let variable, let path, let reason):
            return "variable '\(variable)' cannot be snapshotted: \(path) is \(reason); a snapshot holds only what JSON represents (null, booleans, finite numbers, strings, arrays and plain objects, each object once)"
        case .invocationActive(let state, let invokeID):
            let which = invokeID.map { "<invoke id=\"\($0)\">" } ?? "an <invoke>"
            return "state '\(state)' is active and has \(which): invoked sessions cannot be snapshotted; snapshot when no state with an <invoke> is active"
        case .datamodelNotSnapshottable(let name):
            return "the \(name) datamodel cannot export its variables (it does not conform to SCXMLSnapshottingDatamodel)"
        case .unencodableEvent(let name):
            return "queued event '\(name)' carries a payload that is neither an SCXML event nor data, so it cannot be snapshotted"
        case .differentDocument(let expected, let found):
            return "the snapshot was taken of another document (\(Self.describe(found))), not this machine's (\(Self.describe(expected))); restore it into a machine loaded from the same document"
        case .differentDatamodel(let expected, let found):
            return "the snapshot was taken with the \(found) datamodel, but this machine runs the \(expected) datamodel"
        case .unsupportedVersion(let version):
            return "snapshot format version \(version) is not supported (this library reads version \(SCXMLSnapshot.currentVersion))"
        case .alreadyStarted:
            return "restore a snapshot into a machine that has not been started: create the SCXMLMachine and call restore(_:) instead of start()"
        case .malformed(let what):
            return "the snapshot is malformed: \(what)"
        }
    }

    private static func describe(_ fingerprint: SCXMLDocumentFingerprint) -> String {
        (fingerprint.name.map { "name '\($0)', " } ?? "") + fingerprint.hash
    }
}
