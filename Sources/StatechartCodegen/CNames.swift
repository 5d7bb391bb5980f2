import CStateCore
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
    /// identifier; a name ``problem(withChartName:)`` refuses (a leading digit, a clash with
    /// CStateCore's or the C library's names) gets `chart_` in front, which it accepts.
    static func chartName(fromFile path: String) -> String {
        var base = Substring(path)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        if let dot = base.firstIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        let name = sanitized(String(base))
        return problem(withChartName: name) == nil ? name : "chart_" + name
    }

    /// The C standard headers' base names: `NAME.h` must not stand for one of them on an
    /// include path (`-I DIR` makes `#include <stdio.h>` find `DIR/stdio.h` first).
    static let standardHeaders: Set<String> = [
        "assert", "complex", "ctype", "errno", "fenv", "float", "inttypes", "iso646", "limits", "locale",
        "math", "setjmp", "signal", "stdalign", "stdarg", "stdatomic", "stdbool", "stddef", "stdint", "stdio",
        "stdlib", "stdnoreturn", "string", "tgmath", "threads", "time", "uchar", "wchar", "wctype",
    ]

    /// Why `name` cannot be a chart's C name, or `nil` when it can.
    ///
    /// Every identifier the generator writes is `NAME_` followed by a fixed word or a sanitized
    /// text (``CChartNames``, the header guard `NAME_H`, the trace main's `NAME_trace_options`),
    /// so a chart owns the identifiers starting with `NAME_`. The refused names are those whose
    /// `NAME_` space someone else owns: CStateCore's `sc_`/`SC_` in any case (its macros
    /// `SC_STATE_HAS_*`, its header guard `SC_CORE_H`), C's reserved `_`-names (the C library's
    /// header guards such as `_STDIO_H`), and the standard headers' names (as file names).
    static func problem(withChartName name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "the name is empty" }
        if sanitized(name) != name || (first.value >= 0x30 && first.value <= 0x39) {
            return "'\(name)' is not a C identifier (letters, digits and '_', not starting with a digit)"
        }
        let lowercased = name.lowercased()
        if lowercased == "sc" || lowercased.hasPrefix("sc_") {
            return "'\(name)' would clash with CStateCore's own 'sc_' and 'SC_' names"
        }
        if name.hasPrefix("_") {
            return "'\(name)' starts with '_', which C reserves for the compiler and its library"
        }
        if standardHeaders.contains(name) {
            return "'\(name).h' would stand for the C library's <\(name).h> on an include path"
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

    /// `text` safe inside a `/* */` comment on one line: printable ASCII only (every other
    /// character `?`), no `*/` or `/*`, no `??` (a trigraph may not end the comment but draws
    /// `-Wtrigraphs`), and no `\\` (a backslash next to the line's end would splice lines).
    static func comment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let printable = scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\\"
            out.unicodeScalars.append(printable ? scalar : "?")
        }
        while out.contains("??") { out = out.replacingOccurrences(of: "??", with: "? ?") }
        return out.replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "/*", with: "/ *")
    }

    /// An `sc_id` as C: the reserved ids by name, so the tables compile with any
    /// `SC_CONFIG_ID_BITS` (their values depend on the width).
    static func id(_ value: UInt32) -> String {
        switch value {
        case SC_NONE: "SC_NONE"
        case SC_EVENT_ANY: "SC_EVENT_ANY"
        case SC_EVENT_UNKNOWN: "SC_EVENT_UNKNOWN"
        default: "\(value)u"
        }
    }
}
