import Foundation

/// Lines and columns of a document's bytes, counted forward from one asked-for position to the
/// next: the one counter behind every element position, used by the reader while libxml2 reads
/// (`SAXState.locate`) and by `SourceScanner` when that is not certain, so the two always agree.
///
/// Lines are counted at "\n" (libxml2 turns "\r\n" and "\r" into "\n" before it counts; a
/// document with bare "\r" line ends goes through SourceScanner, whose bytes come from
/// `SourceText`). Columns count characters from 1: in UTF-8 every byte that does not continue a
/// sequence (`10xxxxxx`), in single-byte text every byte.
///
/// ```swift
/// var counter = LineCounter(isSingleByte: false)
/// let (line, column) = counter.position(of: 12, in: base)   // then only positions after 12
/// ```
struct LineCounter {
    /// Every byte before `counted` has been counted.
    private var counted = 0
    private var line: Int32 = 1
    /// Where the line holding `counted` starts.
    private var lineStart = 0
    /// Continuation bytes between `lineStart` and `counted`.
    private var continuations = 0
    private let isSingleByte: Bool

    init(isSingleByte: Bool) {
        self.isSingleByte = isSingleByte
    }

    /// The line and column of the byte at `index` of `base`, which must not come before the
    /// byte asked for last.
    ///
    /// - Complexity: O(bytes since the last call); newlines are found with `memchr` and ASCII is
    ///   counted eight bytes at a time.
    mutating func position(of index: Int, in base: UnsafePointer<UInt8>) -> (line: Int32, column: Int32) {
        precondition(index >= counted, "LineCounter positions are asked for in order")
        var from = counted
        while from < index, let found = memchr(base + from, 0x0A, index - from) {
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            line += 1
            lineStart = newline + 1
            continuations = 0
            from = newline + 1
        }
        if !isSingleByte { continuations += Self.continuationBytes(base, from: max(from, lineStart), to: index) }
        counted = index
        return (line, Int32(1 + index - lineStart - continuations))
    }

    /// The UTF-8 continuation bytes in `base[start..<end]`.
    @inline(__always)
    private static func continuationBytes(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var count = 0
        var index = start
        while index < end {
            // Eight ASCII bytes at a time.
            if index + 8 <= end, UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            if base[index] & 0xC0 == 0x80 { count += 1 }
            index += 1
        }
        return count
    }
}
