import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `<data src>`, `<script src>` and `<invoke src>` may read: files inside one folder
/// (``SCXMLMachine/Options/sourceDirectory``, by default the document's own), of bounded size
/// (``SCXMLMachine/Options/maximumSourceSize``). Decided once for a document and shared by the
/// sessions it invokes, so an invoked document in a subfolder cannot widen it.
///
/// The file is opened first and what was opened is checked and read: the descriptor's own path
/// (`/proc/self/fd`, `F_GETPATH`), with every symlink and `..` resolved by the kernel, must lie
/// inside the folder. No second lookup by name follows the check, so swapping a folder for a
/// symlink meanwhile cannot lead a read outside. (A `realpath` check before opening only keeps
/// devices outside the folder from being opened at all.)
///
/// A refusal reads the same whether or not anything exists outside the folder: "it is not a
/// file inside the folder". Only a name inside the folder (no link on the way) that does not
/// exist gets the system's "No such file or directory". Error texts name the `src` and the
/// reason, never the contents of a file.
struct SourceAccess: Sendable {
    /// The allowed folder, resolved; `nil` when no file may be read.
    let folder: String?
    let sizeLimit: Int

    init(options: SCXMLMachine.Options, baseURL: URL?) {
        sizeLimit = options.maximumSourceSize
        let chosen = options.sourceDirectory ?? baseURL
        folder = chosen.flatMap { Self.resolved($0.path) }
    }

    /// The file `uri` names: its bytes and its resolved URL (the base of an invoked document's
    /// own references).
    func read(_ uri: String, baseURL: URL?) throws -> (data: Data, url: URL) {
        let url = try SCXMLSession.url(of: uri, baseURL: baseURL)
        guard let folder else {
            throw SCXMLExecutionError("cannot load '\(uri)': no folder may be read from (the document was not loaded from a file, or SCXMLMachine.Options.sourceDirectory does not exist); set sourceDirectory (the CLI's --allow-dir) to the folder its files may be read from")
        }
        let outside = SCXMLExecutionError("cannot load '\(uri)': it is not a file inside the folder documents may read from, \(folder) (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)")
        if let path = Self.resolved(url.path), !isInside(path, folder) { throw outside }
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            guard isMissingInside(url.path, folder) else { throw outside }
            throw SCXMLExecutionError("cannot load '\(uri)' (\(url.path)): \(reason)")
        }
        defer { close(fd) }
        guard let path = Self.path(of: fd), isInside(path, folder) else { throw outside }
        do {
            return (try BoundedFileReader.read(descriptor: fd, limit: sizeLimit), URL(fileURLWithPath: path))
        } catch .tooLarge(let size, let limit) {
            throw SCXMLExecutionError("cannot load '\(uri)': \(path) is \(size) bytes, more than the limit of \(limit) bytes (SCXMLMachine.Options.maximumSourceSize)")
        } catch {
            throw SCXMLExecutionError("cannot load '\(uri)': \(path) \(error.message)")
        }
    }

    /// Whether the resolved `path` is `folder` or lies inside it.
    private func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// Whether `path`, which could not be opened, names something missing inside `folder`:
    /// its longest existing ancestor resolves inside the folder, the next component does not
    /// exist (not even as a dangling link), and no `..` follows. Anything else is refused as
    /// outside, so the answer does not tell what exists outside the folder.
    private func isMissingInside(_ path: String, _ folder: String) -> Bool {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var missing: [String] = []
        while let last = components.popLast() {
            missing.insert(last, at: 0)
            let ancestor = "/" + components.joined(separator: "/")
            guard let resolved = Self.resolved(ancestor) else { continue }
            guard isInside(resolved, folder), !missing.contains(".."), !missing.contains(".") else { return false }
            var info = stat()
            return lstat(ancestor + (components.isEmpty ? "" : "/") + missing[0], &info) != 0 && errno == ENOENT
        }
        return false
    }

    /// The text of the file `uri` names (UTF-8).
    func readText(_ uri: String, baseURL: URL?) throws -> String {
        let (data, _) = try read(uri, baseURL: baseURL)
        guard let text = String(data: data, encoding: .utf8) else {
            throw SCXMLExecutionError("cannot load '\(uri)': the file is not valid UTF-8")
        }
        return text
    }

    /// `path` with symlinks, `.` and `..` resolved; `nil` (with `errno` set) when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The path the open descriptor `fd` was reached by, as the kernel resolved it; `nil`
    /// when the system cannot tell (then nothing is read).
    static func path(of fd: Int32) -> String? {
        #if canImport(Darwin)
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        guard fcntl(fd, F_GETPATH, &buffer) == 0 else { return nil }
        return String(cString: buffer)
        #else
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0, count < buffer.count - 1 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A file removed since it was opened reads "PATH (deleted)": not a path to check.
        guard path.hasPrefix("/"), !path.hasSuffix(" (deleted)") else { return nil }
        return path
        #endif
    }
}
