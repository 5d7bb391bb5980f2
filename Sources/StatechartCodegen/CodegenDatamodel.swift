import Statechart
import StatechartSCXML

/// The null datamodel as the generator checks it: everything `NullDatamodel.check` accepts, plus
/// inline `<script>`, which generated C hands to the `NAME_script` hook. Only its `check` is
/// used: the generator compiles the document through `SCXMLMachine` (so the chart is the one
/// the Swift engine builds) and never starts that machine, so nothing here runs.
final class CodegenDatamodel: SCXMLDatamodel {
    static let names = ["null"]

    static func check(_ document: SCXMLDocument) -> [SCXMLDiagnostic] {
        var problems = NullDatamodel.check(document).filter { $0.element != "script" }
        SCXMLDocumentWalker.visit(document) { item in
            let script: SCXMLScript
            switch item {
            case .script(let node), .executable(.script(let node)): script = node
            default: return
            }
            if case .src(let uri) = script.source {
                problems.append(SCXMLDiagnostic(location: script.sourceLocation, element: "script",
                    message: "<script src=\"\(uri)\"> has no C form: write the code inline, where generated C passes it to the NAME_script hook"))
            }
        }
        return problems
    }

    init(services: SCXMLSessionServices) throws {}
    func initialize(_ data: [SCXMLData]) throws { throw Self.unused }
    func runScript(_ script: SCXMLScript) throws { throw Self.unused }
    func setEvent(_ event: SCXMLEvent) {}
    func evaluateCondition(_ expression: String) throws -> Bool { throw Self.unused }
    func evaluate(_ expression: String) throws -> DataValue { throw Self.unused }
    func assign(_ location: String, _ value: SCXMLAssign.Value?) throws { throw Self.unused }
    func store(_ value: DataValue, at location: String) throws { throw Self.unused }
    func items(of arrayExpression: String) throws -> [DataValue] { throw Self.unused }
    func value(at location: String) throws -> DataValue { throw Self.unused }
    func value(ofInline content: SCXMLInlineContent) throws -> DataValue { throw Self.unused }

    private static let unused = SCXMLExecutionError("the code generator's datamodel does not run documents")
}
