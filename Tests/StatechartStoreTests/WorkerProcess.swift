import Foundation
import XCTest

/// The StatechartStoreWorker executable beside the test bundle, run as a child process.
enum WorkerProcess {
    static var path: String {
        // On Linux the bundle is the build folder itself; elsewhere the .xctest inside it.
        let bundle = Bundle(for: Marker.self).bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("StatechartStoreWorker").path }
        return candidates.first(where: FileManager.default.isExecutableFile(atPath:)) ?? candidates[0]
    }

    private final class Marker {}

    /// Starts the worker with `arguments`; its output goes to a temporary file.
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the worker to its end (at most `timeout`) and returns its status and output.
    static func run(_ arguments: [String], timeout: Duration = .seconds(120)) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        let errorOutput = errors.fileHandleForReading.readDataToEndOfFile()
        guard wait(process, timeout: timeout) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (-1, "timed out after \(timeout)")
        }
        return (process.terminationStatus, String(decoding: output + errorOutput, as: UTF8.self))
    }

    /// Waits for `process` to end, at most `timeout`.
    static func wait(_ process: Process, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Kills `process` with SIGKILL and reaps it.
    static func killHard(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
