import Foundation
import StatechartSCXML

extension Loading {
    /// The machine for `path` (load errors printed, exit 2, as ``runnableMachine(_:adjust:)``),
    /// with the options the command's flags give and the document's folder: for commands that
    /// make more machines of the same document (`paths`, `coverage`).
    static func machineAndOptions(_ path: String, access: FileAccessOptions, document: DocumentOptions) throws
        -> (machine: SCXMLMachine, options: SCXMLMachine.Options, baseURL: URL) {
        var options = self.options
        access.apply(to: &options)
        document.apply(to: &options)
        let machine = try runnableMachine(path) { access.apply(to: &$0); document.apply(to: &$0) }
        return (machine, options, URL(fileURLWithPath: path).deletingLastPathComponent())
    }
}
