// The element and attribute names of SCXML 1.0 as small codes, so that the builder switches on
// integers and tests membership with a mask instead of comparing strings. Every interned name of
// a parsed document gets its code once (XMLTree.nameCodes).

/// An element or attribute name SCXML defines (`unknown` for any other name).
enum SCXMLName: UInt8, CaseIterable {
    case unknown = 0
    // Elements.
    case scxml, state, parallel, final, initial, history, transition, onentry, onexit, datamodel, data, donedata
    case content, param, invoke, finalize, raise, `if`, elseif, `else`, foreach, log, assign, script, send, cancel
    // Attributes (`initial` and `datamodel` are element names too).
    case name, version, binding, id, type, event, cond, target, src, expr, location, typeexpr, srcexpr, idlocation
    case namelist, autoforward, eventexpr, targetexpr, delay, delayexpr, label, array, item, index, sendid
    case sendidexpr

    private static let byText: [String: SCXMLName] = {
        var result: [String: SCXMLName] = [:]
        for name in allCases where name != .unknown { result[name.text] = name }
        return result
    }()

    /// The code of `text` (`unknown` when SCXML defines no such name).
    init(_ text: String) {
        self = Self.byText[text] ?? .unknown
    }

    /// The name as written.
    var text: String {
        switch self {
        case .unknown: ""
        case .scxml: "scxml"
        case .state: "state"
        case .parallel: "parallel"
        case .final: "final"
        case .initial: "initial"
        case .history: "history"
        case .transition: "transition"
        case .onentry: "onentry"
        case .onexit: "onexit"
        case .datamodel: "datamodel"
        case .data: "data"
        case .donedata: "donedata"
        case .content: "content"
        case .param: "param"
        case .invoke: "invoke"
        case .finalize: "finalize"
        case .raise: "raise"
        case .if: "if"
        case .elseif: "elseif"
        case .else: "else"
        case .foreach: "foreach"
        case .log: "log"
        case .assign: "assign"
        case .script: "script"
        case .send: "send"
        case .cancel: "cancel"
        case .name: "name"
        case .version: "version"
        case .binding: "binding"
        case .id: "id"
        case .type: "type"
        case .event: "event"
        case .cond: "cond"
        case .target: "target"
        case .src: "src"
        case .expr: "expr"
        case .location: "location"
        case .typeexpr: "typeexpr"
        case .srcexpr: "srcexpr"
        case .idlocation: "idlocation"
        case .namelist: "namelist"
        case .autoforward: "autoforward"
        case .eventexpr: "eventexpr"
        case .targetexpr: "targetexpr"
        case .delay: "delay"
        case .delayexpr: "delayexpr"
        case .label: "label"
        case .array: "array"
        case .item: "item"
        case .index: "index"
        case .sendid: "sendid"
        case .sendidexpr: "sendidexpr"
        }
    }

    @inline(__always)
    var bit: UInt64 { 1 << UInt64(rawValue) }
}

/// The names an element allows (attributes or children): a mask for tests, the names in order
/// for messages.
struct SCXMLNameList {
    let names: [String]
    let mask: UInt64

    init(_ list: [SCXMLName]) {
        names = list.map(\.text)
        mask = list.reduce(0) { $0 | $1.bit }
    }

    @inline(__always)
    func contains(_ name: SCXMLName) -> Bool { name != .unknown && mask & name.bit != 0 }

    var isEmpty: Bool { names.isEmpty }
}
