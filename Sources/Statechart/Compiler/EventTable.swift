import CStateCore

/// Interned event names. Every prefix of a name ("a", "a.b" for "a.b.c") is interned before
/// the name itself, so the core matches descriptors by walking ids, never strings.
struct EventTable: Sendable {
    private(set) var names: [String] = []
    private(set) var prefixes: [UInt32] = []
    private var ids: [String: UInt32] = [:]

    /// Tab, line feed, vertical tab, form feed, carriage return, space: the ASCII characters
    /// `Character.isWhitespace` accepts.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// The id of `name`, interning it and its prefixes.
    @discardableResult
    mutating func intern(_ name: String) -> UInt32 {
        if let id = ids[name] { return id }
        var prefix = UInt32(SC_NONE)
        // In ASCII every byte is a character, so the last "." byte is the last "." character.
        let dot = name.utf8.allSatisfy({ $0 < 0x80 }) ? name.utf8.lastIndex(of: UInt8(ascii: ".")) : name.lastIndex(of: ".")
        if let dot {
            prefix = intern(String(name[..<dot]))
        }
        let id = UInt32(names.count)
        names.append(name)
        prefixes.append(prefix)
        ids[name] = id
        return id
    }

    /// The id the core should see for an event named `name`: the name's own id when interned,
    /// else the id of its longest interned prefix (which matches exactly the same descriptors),
    /// else `SC_EVENT_UNKNOWN` (matched by `*` only).
    func lookup(_ name: String) -> (id: UInt32, exact: Bool) {
        if let id = ids[name] { return (id, true) }
        var rest = Substring(name)
        while let dot = rest.lastIndex(of: ".") {
            rest = rest[..<dot]
            if let id = ids[String(rest)] { return (id, false) }
        }
        return (UInt32(SC_EVENT_UNKNOWN), false)
    }

    /// The descriptor id for an SCXML event descriptor: `*` is any event, `a.*` and `a.` mean `a`.
    mutating func descriptor(_ text: String) -> UInt32? {
        if let id = ids[text], Self.isPlainName(text) { return id }   // the common case: a known name
        var name = Substring(text)
        if name == "*" { return UInt32(SC_EVENT_ANY) }
        if name.hasSuffix(".*") { name = name.dropLast(2) }
        while name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, !name.contains("*"), !name.contains(where: \.isWhitespace) else { return nil }
        return intern(String(name))
    }

    /// Whether `text` is its own descriptor: ASCII, no whitespace, no `*`, not ending in ".".
    private static func isPlainName(_ text: String) -> Bool {
        text.utf8.last != UInt8(ascii: ".")
            && text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "*") && !isASCIIWhitespace($0) }
    }
}
