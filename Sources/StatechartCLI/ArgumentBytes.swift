import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Command-line arguments as the bytes the shell passed: a file name is bytes, not always
/// UTF-8, and `CommandLine.arguments` replaces what is not UTF-8 with U+FFFD, naming another
/// file. ArgumentParser takes strings, so every argument is passed to it in a form that keeps
/// each byte, and paths are turned back into bytes (``bytes(_:)``) before they are opened.
///
/// The form: a byte of a sequence that is not UTF-8, or of one of the scalars U+10FF80 to
/// U+10FFFF (private use, set aside for this), is written as the scalar U+10FF00 plus the byte;
/// every other scalar stands for itself. It is one-to-one, so ``bytes(_:)`` gives back exactly
/// the bytes of the argument.
///
/// ```
/// statechart validate "$(printf 'caf\xe9.scxml')"    # a Latin-1 name: opened as it is
/// ```
enum ArgumentBytes {
    private static let base: UInt32 = 0x10FF00

    /// The process's arguments after the program name, each in the byte-keeping form.
    static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            let length = strlen(pointer)
            return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                string(Array(UnsafeBufferPointer(start: $0, count: length)))
            }
        }
    }

    /// `bytes` in the byte-keeping form.
    static func string(_ bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        var index = 0
        func escape(_ count: Int) {
            for byte in bytes[index..<index + count] { out.append(Unicode.Scalar(base + UInt32(byte))!) }
            index += count
        }
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length == 0 { escape(1); continue }
            let sequence = bytes[index..<index + length]
            let scalar = String(decoding: sequence, as: UTF8.self).unicodeScalars.first!
            if scalar.value >= base + 0x80 { escape(length); continue }
            out.append(scalar)
            index += length
        }
        return String(out)
    }

    /// The bytes an argument (or a part of one, such as an option's value) stands for.
    static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                out.append(UInt8(scalar.value - base))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// `text` for messages: its bytes read as UTF-8, what is not UTF-8 shown as U+FFFD.
    static func display(_ text: String) -> String { String(decoding: bytes(text), as: UTF8.self) }

    /// Whether `text` stands for bytes that are all UTF-8 (so a `String` API can take it).
    static func isUTF8(_ text: String) -> Bool { !text.unicodeScalars.contains { $0.value >= base + 0x80 && $0.value <= base + 0xFF } }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 when there is none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for k in 1..<length {
            let byte = bytes[index + k]
            let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= lo && byte <= hi else { return 0 }
        }
        return length
    }
}
