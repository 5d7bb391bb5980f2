import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file whose size is bounded, for documents and `src` resources. The size is checked
/// on the open descriptor before anything is read, and no more than the limit is read even if
/// the file grows meanwhile, so a 1 GB file costs no memory; directories, FIFOs and devices are
/// refused by their type (a FIFO is opened non-blocking, so opening it cannot hang).
package enum BoundedFileReader {
    /// Why a file could not be read; ``message`` is a sentence without the file's contents.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case directory
        case notRegularFile
        /// `size` is a lower bound when the file grew while being read.
        case tooLarge(size: Int, limit: Int)
        /// The system's reason (`strerror`), e.g. "No such file or directory".
        case system(String)

        /// What is wrong with the file, to follow its name: "is a directory".
        package var message: String {
            switch self {
            case .directory: return "is a directory"
            case .notRegularFile: return "is not a regular file (a FIFO, socket or device)"
            case .tooLarge(let size, let limit): return "is \(size) bytes, more than the limit of \(limit) bytes"
            case .system(let reason): return "cannot be read: \(reason)"
            }
        }

        package var description: String { message }
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    ///
    /// ```swift
    /// let data = try BoundedFileReader.read("chart.scxml", limit: 16 << 20)
    /// ```
    /// - Complexity: O(min(file size, limit)) time and memory.
    package static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        try read(pathBytes: Array(path.utf8), limit: limit)
    }

    /// The bytes of the regular file whose path is `pathBytes` (not necessarily UTF-8: a file
    /// name is bytes), at most `limit` of them.
    package static func read(pathBytes: [UInt8], limit: Int) throws(Failure) -> Data {
        let fd = (pathBytes + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw .system(String(cString: strerror(errno))) }
        defer { close(fd) }
        return try read(descriptor: fd, limit: limit)
    }

    /// The bytes of the regular file open as `fd` (which the caller closes), at most `limit`
    /// of them: what was opened is what is read (no second lookup by name).
    package static func read(descriptor fd: Int32, limit: Int) throws(Failure) -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .directory
        default: throw .notRegularFile
        }
        let size = Int(clamping: info.st_size)     // off_t is 64-bit where Int may be 32
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        // The size is a hint (files in /proc report 0; a file may grow): read until the end,
        // up to one byte more than the limit, which tells a file that is over it.
        var data = Data(count: min(size, limit) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else { throw .tooLarge(size: filled, limit: limit) }
                data.count = min(data.count * 2, limit + 1)
            }
            let count = data.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(String(cString: strerror(errno)))
            }
            filled += count
        }
        data.count = filled
        return data
    }
}

/// `read(2)`, named apart from ``BoundedFileReader/read(_:limit:)``.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
