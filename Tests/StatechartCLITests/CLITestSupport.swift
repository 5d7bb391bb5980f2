import Foundation
import XCTest

/// Runs the built `statechart` tool and captures its output and exit status.
enum CLI {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The tool sits next to the test bundle in the build products folder.
    static var executable: URL {
        let products = Bundle.main.bundleURL.pathExtension == "xctest"
            ? Bundle.main.bundleURL.deletingLastPathComponent()
            : URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return products.appendingPathComponent("statechart")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
        /// Standard error's lines: diagnostics (file:line:column: error: ...), warnings, logs.
        var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// Runs `statechart arguments...` in the repository folder with `input` on standard input.
    static func run(_ arguments: [String], input: String = "") throws -> Result {
        try run(arguments, bytes: Data(input.utf8))
    }

    /// Runs `executable arguments...` (the tool by default) in the repository folder with
    /// `input` on standard input.
    static func run(_ arguments: [String], input: String = "", executable: URL) throws -> Result {
        try run(arguments, bytes: Data(input.utf8), executable: executable)
    }

    /// Runs `statechart arguments...` (or `executable`) with `bytes` (not necessarily UTF-8) on
    /// standard input.
    static func run(_ arguments: [String], bytes: Data, executable: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? self.executable
        process.arguments = arguments
        process.currentDirectoryURL = repository
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(bytes)
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    static func events(_ example: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent("scxml/examples/\(example).events"), encoding: .utf8)
    }
}
