import StatechartSCXML

extension SCXMLMachine.Options {
    /// Options for documents of both datamodels: `datamodel="ecmascript"` runs on
    /// ``ECMAScriptDatamodel``, `datamodel="null"` and documents that declare none on
    /// `NullDatamodel`.
    ///
    /// ```swift
    /// let machine = try SCXMLMachine(contentsOf: url, options: .withECMAScript)
    /// machine.onLog { label, message in print(label ?? "log", message) }
    /// try machine.start()
    /// ```
    public static var withECMAScript: SCXMLMachine.Options {
        SCXMLMachine.Options(datamodels: [NullDatamodel.self, ECMAScriptDatamodel.self])
    }
}
