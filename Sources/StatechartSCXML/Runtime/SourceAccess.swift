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
/// A path is checked after symlinks and `..` are resolved (`realpath`), so neither a link nor
/// `../` leads out of the folder. Error texts name the `src` and the reason, never the
/// contents of a file.
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
        guard let path = Self.resolved(url.path) else {
            throw SCXMLExecutionError("cannot load '\(uri)' (\(url.path)): \(String(cString: strerror(errno)))")
        }
        guard path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/") else {
            throw SCXMLExecutionError("cannot load '\(uri)': \(path) is outside the folder documents may read from, \(folder) (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)")
        }
        do {
            return (try BoundedFileReader.read(path, limit: sizeLimit), URL(fileURLWithPath: path))
        } catch .tooLarge(let size, let limit) {
            throw SCXMLExecutionError("cannot load '\(uri)': \(path) is \(size) bytes, more than the limit of \(limit) bytes (SCXMLMachine.Options.maximumSourceSize)")
        } catch {
            throw SCXMLExecutionError("cannot load '\(uri)': \(path) \(error.message)")
        }
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
}
