import ArgumentParser
import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML

/// Loading shared by the commands: every datamodel the tool links, errors to standard error.
enum Loading {
    /// Null (also for documents that declare no datamodel) and ECMAScript.
    static var options: SCXMLMachine.Options { .withECMAScript }

    /// The machine for `path`, or the load errors (`file:line:column: error: message` lines).
    /// `adjust` changes the options a command takes from its flags (``NetworkOptions``,
    /// ``FileAccessOptions``).
    static func machine(_ path: String, adjust: (inout SCXMLMachine.Options) -> Void = { _ in })
        -> Result<SCXMLMachine, SCXMLLoadError> {
        var options = self.options
        adjust(&options)
        let fileName = ArgumentBytes.display(path)
        // `src` files are read relative to the document's folder: a folder whose name is not
        // UTF-8 has no URL, and then none may be read (the message says so and names --allow-dir).
        let folder = ArgumentBytes.isUTF8(path) ? URL(fileURLWithPath: path).deletingLastPathComponent() : nil
        do {
            // Read here so diagnostics name the file as the user wrote it, by its bytes. The size
            // is checked before anything is read; directories and FIFOs are refused by type.
            let data = try SCXMLParser.readDocument(pathBytes: ArgumentBytes.bytes(path), fileName: fileName,
                                                    limits: options.parserLimits)
            return .success(try SCXMLMachine(data: data, fileName: fileName, baseURL: folder, options: options))
        } catch let error as SCXMLLoadError {
            return .failure(error)
        } catch let error as SCXMLParseError {
            return .failure(SCXMLLoadError(diagnostics: error.diagnostics))
        } catch {
            return .failure(SCXMLLoadError(diagnostics: [SCXMLDiagnostic(
                location: SCXMLSourceLocation(file: fileName, line: 1, column: 1), element: "scxml",
                message: "\(error)")]))
        }
    }

    /// The machine for `path` with its `<log>` output on standard error, after its load warnings;
    /// for an invalid document, prints the errors (and warnings) to standard error and exits
    /// with status 2.
    static func runnableMachine(_ path: String, adjust: (inout SCXMLMachine.Options) -> Void = { _ in }) throws -> SCXMLMachine {
        switch machine(path, adjust: adjust) {
        case .success(let machine):
            for warning in machine.warnings { printError(warning.description) }
            machine.onLog { label, message in printError("log: \(label.map { "\($0): " } ?? "")\(message)") }
            return machine
        case .failure(let error):
            printError(error.description)
            throw ExitCode(2)
        }
    }

    /// A diagnostic line on standard error.
    static func printError(_ text: String) {
        StandardStreams.error(text + "\n")
    }

    /// `["a","b"]`
    static func jsonList(_ items: [String]) -> String {
        "[" + items.map { DataValue.quote($0) }.joined(separator: ",") + "]"
    }
}

/// Writes a line to standard output and flushes it at once (consumers read line by line).
func emit(_ line: String) {
    StandardStreams.output(line + "\n")
}

/// `--allow-dir DIR`: the folder that files named by `<data src>`, `<script src>` and
/// `<invoke src>` must lie inside (``SCXMLMachine/Options/sourceDirectory``). Without it, the
/// document's own folder. A command takes it with `@OptionGroup var access: FileAccessOptions`,
/// calls ``check()`` in its `validate()` and passes ``apply(to:)`` to ``Loading/machine(_:adjust:)``.
struct FileAccessOptions: ParsableArguments {
    @Option(name: .customLong("allow-dir"),
            help: "The folder that <data src>, <script src> and <invoke src> may read from (default: the document's folder).")
    var allowDirectory: String?

    /// Refuses a folder that does not exist (exit 2), rather than silently allowing nothing.
    func check() throws {
        guard let allowDirectory else { return }
        guard ArgumentBytes.isUTF8(allowDirectory) else {
            Loading.printError("Error: --allow-dir '\(ArgumentBytes.display(allowDirectory))': the folder's name must be UTF-8")
            throw ExitCode(2)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: allowDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            Loading.printError("Error: --allow-dir '\(allowDirectory)' is not a folder")
            throw ExitCode(2)
        }
    }

    func apply(to options: inout SCXMLMachine.Options) {
        if let allowDirectory { options.sourceDirectory = URL(fileURLWithPath: allowDirectory) }
    }
}
