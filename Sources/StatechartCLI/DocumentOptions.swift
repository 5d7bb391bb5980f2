import ArgumentParser
import StatechartSCXML

/// How every command that loads a document reads it: `--datamodel null|ecmascript` picks the
/// datamodel of documents that declare none (``SCXMLMachine/Options/defaultDatamodel``; Qt and
/// uSCXML charts assume null, the default; SCION and XState charts ECMAScript), and `--strict`
/// refuses what other tools write that breaks a rule of SCXML but has one obvious meaning
/// (``SCXMLMachine/Options/strict``; docs/COMPATIBILITY.md), which otherwise loads with a warning.
///
/// ```
/// statechart run scion-chart.scxml --datamodel ecmascript
/// statechart validate --strict qt-chart.scxml
/// ```
struct DocumentOptions: ParsableArguments {
    /// The datamodels the tool links.
    enum Datamodel: String, ExpressibleByArgument, CaseIterable {
        case null
        case ecmascript
    }

    @Option(name: .customLong("datamodel"),
            help: "The datamodel of documents without a datamodel attribute (default: null).")
    var datamodel: Datamodel?

    @Flag(name: .customLong("strict"),
          help: "Refuse, as errors, the rule breaks other tools' charts are loaded with (warnings otherwise).")
    var strict = false

    func apply(to options: inout SCXMLMachine.Options) {
        if let datamodel { options.defaultDatamodel = datamodel.rawValue }
        options.strict = strict
    }
}
