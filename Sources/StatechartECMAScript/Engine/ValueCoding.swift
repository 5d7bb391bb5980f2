import Statechart

/// The byte encoding shared with the C shim (see `duk_shim.h`), little endian:
/// `u` undefined, `n` null, `t`/`f`, `d` + f64 bits, `s` + u32 length + UTF-8,
/// `a` + u32 count + values, `o` + u32 count + (u32 length + UTF-8 key + value)*.
enum ValueCoding {
    static func encode(_ value: DataValue) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(value, into: &bytes)
        return bytes
    }

    static func encode(_ value: DataValue, into bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(UInt8(ascii: "n"))
        case .bool(let flag):
            bytes.append(UInt8(ascii: flag ? "t" : "f"))
        case .number(let number):
            bytes.append(UInt8(ascii: "d"))
            let bits = number.bitPattern
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
            }
        case .string(let string):
            bytes.append(UInt8(ascii: "s"))
            appendString(string, into: &bytes)
        case .array(let items):
            bytes.append(UInt8(ascii: "a"))
            appendLength(items.count, into: &bytes)
            for item in items {
                encode(item, into: &bytes)
            }
        case .object(let members):
            bytes.append(UInt8(ascii: "o"))
            appendLength(members.count, into: &bytes)
            for (key, member) in members {
                appendString(key, into: &bytes)
                encode(member, into: &bytes)
            }
        }
    }

    private static func appendLength(_ length: Int, into bytes: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: length)
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    private static func appendString(_ string: String, into bytes: inout [UInt8]) {
        let utf8 = string.utf8
        appendLength(utf8.count, into: &bytes)
        bytes.append(contentsOf: utf8)
    }

    /// Decodes one value; `nil` stands for a top-level `undefined`. Nested `undefined`s become
    /// `.null` in arrays and are left out of objects, as in JSON.
    static func decode(_ buffer: UnsafeRawBufferPointer) throws(ScriptError) -> DataValue? {
        var reader = Reader(buffer: buffer)
        let value = try reader.value(depth: 0)
        guard reader.position == buffer.count else { throw Reader.malformed }
        return value
    }

    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        var position = 0

        static let malformed = ScriptError(name: "InternalError", message: "malformed value from the script engine")

        mutating func byte() throws(ScriptError) -> UInt8 {
            guard position < buffer.count else { throw Self.malformed }
            defer { position += 1 }
            return buffer[position]
        }

        mutating func length() throws(ScriptError) -> Int {
            guard buffer.count - position >= 4 else { throw Self.malformed }
            var value: UInt32 = 0
            for index in 0..<4 {
                value |= UInt32(buffer[position + index]) << UInt32(8 * index)
            }
            position += 4
            return Int(value)
        }

        mutating func string() throws(ScriptError) -> String {
            let count = try length()
            guard buffer.count - position >= count else { throw Self.malformed }
            defer { position += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[position..<position + count]), as: UTF8.self)
        }

        mutating func value(depth: Int) throws(ScriptError) -> DataValue? {
            guard depth <= 1024 else { throw Self.malformed }
            switch try byte() {
            case UInt8(ascii: "u"):
                return nil
            case UInt8(ascii: "n"):
                return .null
            case UInt8(ascii: "t"):
                return .bool(true)
            case UInt8(ascii: "f"):
                return .bool(false)
            case UInt8(ascii: "d"):
                guard buffer.count - position >= 8 else { throw Self.malformed }
                var bits: UInt64 = 0
                for index in 0..<8 {
                    bits |= UInt64(buffer[position + index]) << UInt64(8 * index)
                }
                position += 8
                return .number(Double(bitPattern: bits))
            case UInt8(ascii: "s"):
                return .string(try string())
            case UInt8(ascii: "a"):
                let count = try length()
                var items: [DataValue] = []
                items.reserveCapacity(min(count, buffer.count - position))
                for _ in 0..<count {
                    items.append(try value(depth: depth + 1) ?? .null)
                }
                return .array(items)
            case UInt8(ascii: "o"):
                let count = try length()
                var members: [String: DataValue] = [:]
                for _ in 0..<count {
                    let key = try string()
                    if let member = try value(depth: depth + 1) {
                        members[key] = member
                    }
                }
                return .object(members)
            default:
                throw Self.malformed
            }
        }
    }
}
