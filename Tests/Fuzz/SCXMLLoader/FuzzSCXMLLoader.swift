// The SCXML loader's fuzz harness: parse, validate, compile, start and a few events.
//
// Built by scripts/fuzz.sh with `-sanitize=fuzzer,address -DFUZZING_LIBFUZZER`, its main() runs
// libFuzzer's driver, which calls `LLVMFuzzerTestOneInput` with each input. Built
// normally (`swift build --product StatechartFuzzSCXML`), it replays the files given as arguments
// through the same function, so a finding can be reproduced and debugged without libFuzzer:
//
//     swift run StatechartFuzzSCXML Tests/Fuzz/findings/scxml/some-input.scxml
//
// STATECHART_FUZZ_DATAMODEL=ecmascript offers the ECMAScript datamodel besides the null one
// (documents declaring datamodel="ecmascript" then load); otherwise only the null datamodel is
// available and such documents must be rejected with a diagnostic.
//
// What must hold for every input: no crash, trap, sanitizer report or hang (libFuzzer's
// -timeout); a document that fails to load is rejected with at least one diagnostic of the form
// `fuzz.scxml:line:column: error: message` whose line and column lie inside the input; a loaded
// document starts and takes events; a finished machine stays finished.
import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML

enum FuzzSCXMLLoader {
    static let fileName = "fuzz.scxml"
    static let useECMAScript = ProcessInfo.processInfo.environment["STATECHART_FUZZ_DATAMODEL"] == "ecmascript"

    /// Inputs naming an external resource are skipped: until the loader confines `src` reads and
    /// BasicHTTP `<send>`s (issue 12), such a document could read any file of this machine or
    /// reach the network, which a fuzzer must not do. Attribute names cannot come from
    /// entities, so a byte search is enough; `typeexpr` could compute the BasicHTTP type.
    static let refused: [[UInt8]] = ["src", "basichttp", "typeexpr"].map { Array($0.utf8) }

    static func admissible(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for word in refused where contains(bytes, word) { return false }
        return true
    }

    /// Case-insensitive (ASCII) search of `word` (lowercase) in `bytes`.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ word: [UInt8]) -> Bool {
        guard bytes.count >= word.count else { return false }
        outer: for start in 0...(bytes.count - word.count) {
            for (k, w) in word.enumerated() where bytes[start + k] | 0x20 != w { continue outer }
            return true
        }
        return false
    }

    /// Event names worth sending: the values of `event="..."` attributes in the input (the
    /// document's descriptors), then a few fixed ones, at most eight.
    static func eventNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while names.count < 6, let range = rest.range(of: "event=\"") {
            let after = rest[range.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            for token in after[..<end].split(separator: " ") where !token.isEmpty && token != "*" {
                names.append(String(token.hasSuffix(".*") ? token.dropLast(2) : token))
            }
            rest = after[end...]
        }
        return Array((names + ["e", "done.invoke", "error.execution"]).prefix(8))
    }

    static func check(_ diagnostics: [SCXMLDiagnostic], lines: Int, stage: String) {
        guard !diagnostics.isEmpty else { fail("\(stage) rejected the document without a diagnostic") }
        for diagnostic in diagnostics {
            let text = diagnostic.description
            let location = diagnostic.location
            guard text.hasPrefix("\(location.file):\(location.line):\(location.column): ") else {
                fail("\(stage): diagnostic without file:line:column: \(text)")
            }
            // Load errors without an element's position point at the document (1:1) or the root.
            guard location.line >= 1, location.line <= lines + 1, location.column >= 1 else {
                fail("\(stage): diagnostic outside the input (\(lines) lines): \(text)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("fuzz_scxml: FINDING: \(message)\n".utf8))
        abort()
    }

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard admissible(bytes) else { return }
        let data = Data(buffer: bytes)
        let lines = bytes.reduce(into: 1) { count, byte in if byte == 0x0A { count += 1 } }
        let document: SCXMLDocument
        do {
            document = try SCXMLParser.parse(data: data, fileName: fileName, limits: .default)
        } catch {                                  // typed: SCXMLParseError
            check(error.diagnostics, lines: lines, stage: "parsing")
            return
        }
        var options = useECMAScript ? SCXMLMachine.Options.withECMAScript : SCXMLMachine.Options()
        let clock = TestClock()
        options.clock = clock
        // A smaller runaway bound than the default 100,000 keeps runaway inputs fast under ASan;
        // the bound itself is the same mechanism whatever its value.
        options.machine = MachineOptions(maximumStepsPerMacrostep: 2_000)
        // Likewise the mailbox: a state re-entered on every done.invoke can double the events
        // from its children on every round (docs/FUZZING.md); with the default bound of a
        // million such an input runs for minutes under ASan before the bound stops it.
        options.maximumMailboxEvents = 64
        let machine: SCXMLMachine
        do {
            machine = try SCXMLMachine(document: document, options: options)
        } catch let error as SCXMLLoadError {
            check(error.diagnostics, lines: lines, stage: "loading")
            return
        } catch {
            fail("loading threw \(type(of: error)), not SCXMLLoadError: \(error)")
        }
        // Each input gets a few seconds of work, then its machine is interrupted (the library's
        // own mechanism: every macrostep stops at its next microstep, leaving a legal
        // configuration), so that the rest of the input runs in moments. Legal charts can make
        // work that grows without bound: a state re-entered on every done.invoke that sends
        // itself a delayed event on each entry doubles the events due at each advance of the
        // clock (docs/FUZZING.md). libFuzzer's -timeout still reports a call that never
        // returns, which is a hang.
        let watchdog = DispatchWorkItem { [weak machine] in machine?.machine.interrupt() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(3), execute: watchdog)
        defer { watchdog.cancel() }
        machine.onSend { _, _, _ in false }       // nothing leaves the process
        machine.onLog { _, _ in }
        do {
            try machine.start()
        } catch {
            return                                 // a runaway start is reported, not a crash
        }
        let text = String(decoding: data, as: UTF8.self)
        for name in eventNames(in: text) {
            let finishedBefore = machine.isFinished
            _ = try? machine.send(name)
            clock.advance(by: .seconds(1))         // delayed <send>s fall due
            if finishedBefore && !machine.isFinished { fail("a finished machine was restarted by '\(name)'") }
        }
        machine.machine.stop()
    }
}

#if FUZZING_LIBFUZZER
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzSCXMLLoader.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). SwiftPM links an executable
/// with `main` defined as this module's main, so libFuzzer's own main() is never linked in:
/// ours hands the command line to the driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

/// Built with FUZZING_LIBFUZZER: libFuzzer's driver with this harness. Otherwise: replays the
/// files named on the command line (a finding, or a corpus folder's files).
@main
struct FuzzSCXMLLoaderMain {
    static func main() {
        #if FUZZING_LIBFUZZER
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runLibFuzzerDriver(&argc, &argv, fuzzTestOneInput))
        #else
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty {
            FileHandle.standardError.write(Data("usage: StatechartFuzzSCXML FILE...\n".utf8))
            exit(2)
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("StatechartFuzzSCXML: cannot read \(path)\n".utf8))
                exit(2)
            }
            data.withUnsafeBytes { raw in FuzzSCXMLLoader.run(raw.bindMemory(to: UInt8.self)) }
            print("\(path): ok")
        }
        #endif
    }
}
