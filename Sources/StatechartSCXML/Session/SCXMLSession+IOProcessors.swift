// The Event I/O Processors a session offers (`_ioprocessors`) and the types `<send>` accepts.

extension SCXMLSession {
    static let processorTypes: Set<String> = [
        SCXMLEvent.scxmlProcessorType, "scxml", "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml",
    ]
    static let basicHTTPTypes: Set<String> = [SCXMLEvent.basicHTTPProcessorType, "basichttp"]


    var ioProcessors: [String: String] {
        var processors = ["scxml": "#_scxml_\(sessionID)", SCXMLEvent.scxmlProcessorType: "#_scxml_\(sessionID)"]
        if receivesBasicHTTP, let location = BasicHTTPServer.shared.location(of: sessionID) {
            processors["basichttp"] = location
            processors[SCXMLEvent.basicHTTPProcessorType] = location
        }
        return processors
    }

    /// Whether ``SCXMLMachine/Options/basicHTTPServer`` gives this session a location.
    var receivesBasicHTTP: Bool {
        switch options.basicHTTPServer.kind {
        case .never: return false
        case .always: return true
        case .whenUsed:
            return document.mentionsBasicHTTP
                || preloaded.values.contains { $0.range(of: "basichttp", options: .caseInsensitive) != nil }
        }
    }
}
