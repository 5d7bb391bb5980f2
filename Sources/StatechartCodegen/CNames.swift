import Foundation

/// C identifiers for what a chart names: states, events, guards, actions, hooks.
///
/// A name is the text with every character outside `[A-Za-z0-9_]` replaced by `_` (so the event
/// `turn.on` becomes `turn_on` and the state `door-open` becomes `door_open`), behind a prefix
/// (`NAME_STATE_`, `NAME_EVENT_`, ...). When two texts give the same identifier, the first in
/// document order (states) or id order (events) keeps it and each later one gets `_2`, `_3`, ...:
/// the first suffix that no other name of the chart uses.
struct CNameTable {
    private var used: Set<String> = []

    /// `text` made a C identifier body (no prefix): `_` for every other character.
    static func sanitized(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let ok = (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
            out.unicodeScalars.append(ok ? scalar : "_")
        }
        return out.isEmpty ? "_" : out
    }

    /// Reserves `name` exactly (a name the generator itself uses, such as `NAME_ROOT`).
    mutating func reserve(_ name: String) { used.insert(name) }

    /// A unique identifier `prefix + sanitized(text)`, suffixed `_2`, `_3`, ... on a collision.
    mutating func unique(_ prefix: String, _ text: String) -> String {
        let base = prefix + Self.sanitized(text)
        var candidate = base
        var n = 2
        while used.contains(candidate) {
            candidate = "\(base)_\(n)"
            n += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// The chart's C name from a file name: its base name without the extension, made an
    /// identifier; a leading digit gets `chart_` in front.
    static func chartName(fromFile path: String) -> String {
        var base = Substring(path)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        if let dot = base.firstIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        var name = sanitized(String(base))
        if let first = name.unicodeScalars.first, first.value >= 0x30 && first.value <= 0x39 { name = "chart_" + name }
        if name == "sc" || name.hasPrefix("sc_") { name = "chart_" + name }
        return name
    }

    /// Why `name` cannot be a chart's C name, or `nil` when it can.
    static func problem(withChartName name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "the name is empty" }
        if sanitized(name) != name || (first.value >= 0x30 && first.value <= 0x39) {
            return "'\(name)' is not a C identifier (letters, digits and '_', not starting with a digit)"
        }
        if name == "sc" || name.hasPrefix("sc_") {
            return "'\(name)' would clash with CStateCore's own 'sc_' names"
        }
        if name.hasPrefix("__") || (name.hasPrefix("_") && name.count > 1 && name.dropFirst().first!.isUppercase) {
            return "'\(name)' is reserved in C (it starts with '__' or '_' and a capital)"
        }
        return nil
    }
}

/// Text as C source: string literals and comments.
enum CText {
    /// A C string literal of the UTF-8 bytes of `text`: printable ASCII as is, `"`, `\` and `?`
    /// (trigraphs) escaped, every other byte as a three-digit octal escape.
    static func literal(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "?"):
                out += "\\" + String(UnicodeScalar(byte))
            case 0x20..<0x7F:
                out += String(UnicodeScalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out + "\""
    }

    /// `text` safe inside a `/* */` comment on one line: ASCII only, no `*/` or `/*`.
    static func comment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            out.unicodeScalars.append(scalar.value >= 0x20 && scalar.value < 0x7F ? scalar : "?")
        }
        return out.replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "/*", with: "/ *")
    }

    /// `sc_id` as C: `SC_NONE` or `<n>u`.
    static func id(_ value: UInt32) -> String { value == 0xFFFF_FFFF ? "SC_NONE" : "\(value)u" }
}
