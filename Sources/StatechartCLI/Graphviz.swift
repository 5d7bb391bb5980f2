import ArgumentParser
import Foundation

/// Graphviz's `dot`, run as a child process to turn DOT text into SVG (`coverage --svg`,
/// `view`). It is looked up on PATH; without it the command fails with status 1 and says so.
enum Graphviz {
    static func svg(_ dot: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dot", "-Tsvg"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            Loading.printError("error: cannot run Graphviz's 'dot': \(error.localizedDescription)")
            throw ExitCode(1)
        }
        // Written from another thread: `dot` may fill its output pipe before reading all input.
        let text = Data(dot.utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(text)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Loading.printError("error: Graphviz's 'dot' failed (status \(process.terminationStatus); is graphviz installed?): "
                               + String(decoding: message, as: UTF8.self))
            throw ExitCode(1)
        }
        return String(decoding: svg, as: UTF8.self)
    }

    /// Writes `text` into `path`, or fails with status 1 saying which file.
    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            Loading.printError("error: cannot write '\(path)': \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}
