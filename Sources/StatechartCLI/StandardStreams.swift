import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and standard error for every command. Results go to standard output,
/// diagnostics to standard error (the CLI convention, `statechart --help`).
///
/// Writes are plain `write(2)` loops: a standard output that is full (`> /dev/full`) or closed
/// (a pipe whose reader has gone; `SIGPIPE` is ignored so the write fails with `EPIPE`) ends
/// the program with a message on standard error and exit status 1, never a trap. A failing
/// standard error is ignored: there is nowhere left to say so.
enum StandardStreams {
    /// Called once at start-up, before anything is written.
    static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Writes `text` to standard output, or ends the program (status 1) when it cannot.
    static func output(_ text: String) {
        if let reason = writeAll(text, to: STDOUT_FILENO) {
            _ = writeAll("error: cannot write to standard output: \(reason)\n", to: STDERR_FILENO)
            exit(1)
        }
    }

    /// Writes `text` to standard error.
    static func error(_ text: String) { _ = writeAll(text, to: STDERR_FILENO) }

    /// Writes `text` into the file `pathBytes` names (created, or emptied first); the system's
    /// reason when that fails.
    static func writeFile(_ text: String, pathBytes: [UInt8]) -> String? {
        let descriptor = (pathBytes + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666) }
        }
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        return writeAll(text, to: descriptor)
    }

    /// Writes all of `text`; the system's reason when that fails.
    private static func writeAll(_ text: String, to descriptor: Int32) -> String? {
        var text = text
        return text.withUTF8 { buffer -> String? in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += count
            }
            return nil
        }
    }
}
