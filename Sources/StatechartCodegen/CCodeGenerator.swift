import CStateCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Statechart
import StatechartSCXML

/// Why a chart could not be written as C: one line per problem, `file:line:column: error: ...`
/// for documents.
public struct CCodegenError: Error, Sendable, CustomStringConvertible {
    /// The problems, each a complete line.
    public var messages: [String]

    /// An error with `messages`.
    public init(messages: [String]) { self.messages = messages }

    init(_ diagnostics: [SCXMLDiagnostic]) {
        messages = diagnostics.sorted { $0.location < $1.location }.map(\.description)
    }

    /// The lines joined by newlines.
    public var description: String { messages.joined(separator: "\n") }
}

/// The C files generated for one chart: `NAME.h`, `NAME.c`, `NAME_config.h` and, on request,
/// `NAME_main.c`.
public struct CGeneratedFiles: Sendable {
    /// The chart's C name, the prefix of every symbol and the files' base name.
    public var name: String
    /// `NAME.h`: enums of states, events, guards and actions, the chart, the machine size and
    /// the hooks the firmware implements.
    public var header: String
    /// `NAME.c`: the tables and the executable content compiled to C.
    public var source: String
    /// `NAME_config.h`: the core's build switches for this chart (`SC_CONFIG_*`: the features it
    /// leaves out, the id width), for compiling the core and the firmware (docs/CODEGEN.md).
    public var config: String = ""
    /// `NAME_main.c`: a `main()` implementing the `statechart trace` contract, when asked for.
    public var traceMain: String?
    /// What the document gets wrong but was generated anyway, with the meaning it was given
    /// (`SCXMLMachine.warnings`; docs/COMPATIBILITY.md).
    public var warnings: [SCXMLDiagnostic] = []
    /// `sc_chart.flags` of the generated chart: `SC_CHART_QUIET_CONTENT` when its guards and
    /// actions are all empty C (no `<raise>`, `<send>`, nor content that could raise
    /// `error.execution`), so its machines get the core's silent queue defaults (no internal
    /// slot, one external); `SC_CHART_DELAYED_SENDS` when its content starts or cancels timers
    /// (a core built with `SC_CONFIG_NO_DELAYED` refuses it).
    public var chartFlags: UInt32 = 0

    /// The files as (file name, contents), in the order they are written.
    public var files: [(name: String, contents: String)] {
        var list = [("\(name).h", header), ("\(name).c", source), ("\(name)_config.h", config)]
        if let traceMain { list.append(("\(name)_main.c", traceMain)) }
        return list
    }

    /// Writes the files into `directory` (created if missing). Each file is written to a new
    /// temporary file in `directory`, created exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW` under a
    /// random name, so nothing already there, a planted symlink included, is opened or
    /// followed), then renamed over its final name (`rename` replaces a symlink there, never
    /// its target). On any failure the files written so far are removed, so nothing
    /// half-written is left.
    ///
    /// ```swift
    /// try files.write(to: URL(fileURLWithPath: "generated"))
    /// ```
    public func write(to directory: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [String] = []
        do {
            for (fileName, contents) in files {
                let final = directory.appendingPathComponent(fileName).path
                let temporary = try Self.writeExclusively(Array(contents.utf8), in: directory.path, near: fileName)
                written.append(temporary)
                guard rename(temporary, final) == 0 else { throw Self.posixError("cannot rename \(temporary) to \(final)") }
                written[written.count - 1] = final
            }
        } catch {
            for path in written { unlink(path) }
            throw error
        }
    }

    /// Creates `DIR/.NAME.tmp-RANDOM` exclusively and writes `bytes` into it: its path.
    private static func writeExclusively(_ bytes: [UInt8], in directory: String, near fileName: String) throws -> String {
        var path = ""
        var descriptor: Int32 = -1
        for _ in 0..<16 where descriptor < 0 {
            path = "\(directory)/.\(fileName).tmp-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if descriptor < 0 && errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw posixError("cannot create a temporary file in \(directory)") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = posixError("cannot write \(path)")
                unlink(path)
                throw error
            }
            offset += count
        }
        return path
    }

    private static func posixError(_ what: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(errno)))"])
    }
}

/// Writes statecharts as C source for CStateCore: an SCXML document of the null datamodel (its
/// executable content compiled to C), or a chart built in Swift without closures.
///
/// ```swift
/// let files = try CCodeGenerator.generate(scxml: data, fileName: "microwave.scxml")
/// try files.write(to: URL(fileURLWithPath: "firmware/generated"))
/// ```
///
/// The tables are those the Swift engine compiles for the same chart (same state order,
/// transitions, event ids), so a C machine takes exactly the Swift engine's steps.
public enum CCodeGenerator {
    /// Generates C for an SCXML document. `name` defaults to the file's base name made a C
    /// identifier; `traceMain` adds `NAME_main.c`.
    ///
    /// What other tools write that breaks a rule but has one obvious meaning is generated with
    /// that meaning and listed in ``CGeneratedFiles/warnings``; `strict` refuses it.
    ///
    /// - Throws: ``CCodegenError`` with every problem: parse and validation errors, a datamodel
    ///   other than null, and content that has no C form (which element, and why).
    public static func generate(scxml data: Data, fileName: String, name: String? = nil,
                                traceMain: Bool = false, strict: Bool = false) throws(CCodegenError) -> CGeneratedFiles {
        let prefix = try chartName(name, fileName: fileName)
        let document: SCXMLDocument
        do {
            document = try SCXMLParser.parse(data: data, fileName: fileName, strict: strict)
        } catch {
            throw CCodegenError(error.diagnostics)
        }
        if let datamodel = document.datamodel, datamodel != "null" {
            throw CCodegenError([SCXMLDiagnostic(location: document.sourceLocation, element: "scxml",
                message: "datamodel=\"\(datamodel)\" has no C form: generated C runs the null datamodel (In() conditions, literals, host-function hooks)")])
        }
        var problems: [SCXMLDiagnostic] = []
        for state in document.allStates {
            for invoke in state.invokes {
                problems.append(SCXMLDiagnostic(location: invoke.sourceLocation, element: "invoke",
                    message: "<invoke> has no C form: generated C runs one machine; start the other machine from a hook"))
            }
        }
        let machine: SCXMLMachine
        do {
            var options = SCXMLMachine.Options(datamodels: [CodegenDatamodel.self])
            options.strict = strict
            machine = try SCXMLMachine(document: document, options: options)
        } catch let error as SCXMLLoadError {
            throw CCodegenError(error.diagnostics + problems)
        } catch {
            throw CCodegenError(messages: ["\(fileName): error: \(error)"])
        }
        if !problems.isEmpty { throw CCodegenError(problems) }
        let compiled = machine.machine.chart
        let names = CChartNames(compiled, prefix: prefix)
        var writer = CContentWriter(compiled: compiled, names: names)
        var states: [String: SCXMLState] = [:]
        for state in document.allStates { states[state.id] = state }
        func state(_ index: Int) -> SCXMLState? { states[compiled.stateIDs[index]] }

        var guardCases: [(String, [String])] = []
        for (id, site) in names.guardSites.sorted(by: { $0.key < $1.key }) {
            guard let transition = state(site.state)?.transitions[site.number - 1], let cond = transition.cond else { continue }
            guardCases.append((names.guards[id]!, writer.guardCase(cond, transition.sourceLocation)))
        }
        var actionCases: [(String, [String])] = []
        for (id, site) in names.actionSites.sorted(by: { $0.key < $1.key }) {
            var lines: [String] = []
            switch site {
            case .entry(let s):
                for block in state(s)?.onEntry ?? [] {
                    lines += writer.block(block.actions, comment: "<onentry> at \(block.sourceLocation)")
                }
            case .exit(let s):
                for block in state(s)?.onExit ?? [] {
                    lines += writer.block(block.actions, comment: "<onexit> at \(block.sourceLocation)")
                }
            case .initial(let s):
                if let st = state(s) {
                    let transition = st.kind == .history ? st.transitions.first : st.initialElement?.transition
                    if let transition, !transition.actions.isEmpty {
                        lines += writer.block(transition.actions, comment: "default transition at \(transition.sourceLocation)")
                    }
                }
            case .transition(let s, let number, _):
                if let transition = state(s)?.transitions[number - 1], !transition.actions.isEmpty {
                    lines += writer.block(transition.actions, comment: "<transition> at \(transition.sourceLocation)")
                }
            case .start:
                // interpret(): the null datamodel has no data; a top-level <script> runs once.
                if let script = document.script {
                    lines += writer.block([.script(script)], comment: "<script> at \(script.sourceLocation)")
                }
            }
            actionCases.append((names.actions[id]!, lines))
        }
        if !writer.errors.isEmpty { throw CCodegenError(writer.errors) }
        let hooks = CHooks(log: writer.usesLog, timers: writer.usesTimers, conditions: writer.conditionHooks,
                           scripts: writer.scriptHooks)
        // Empty C content queues nothing: the core may size the queues for what the host queues.
        let quiet = guardCases.isEmpty && actionCases.allSatisfy { $0.1.isEmpty }
        let parts = CParts(compiled: compiled, names: names, hooks: hooks, origin: fileName,
                           guardCases: guardCases, actionCases: actionCases,
                           chartFlags: (quiet ? SC_CHART_QUIET_CONTENT : 0) | (hooks.timers ? SC_CHART_DELAYED_SENDS : 0))
        return CGeneratedFiles(name: prefix, header: CHeaderWriter.header(parts), source: CHeaderWriter.source(parts),
                               config: CConfigWriter.config(parts),
                               traceMain: traceMain ? CTraceMainWriter.main(parts) : nil, warnings: machine.warnings,
                               chartFlags: parts.chartFlags)
    }

    /// Generates C for a chart built in Swift. Guards, actions, invocations and done data are
    /// Swift closures, which C cannot run: a chart with any of them is refused, naming each.
    ///
    /// ```swift
    /// let chart = ChartDefinition(name: "turnstile", states: [
    ///     StateDefinition("locked", transitions: [TransitionDefinition(on: "coin", to: "unlocked")]),
    ///     StateDefinition("unlocked", transitions: [TransitionDefinition(on: "push", to: "locked")]),
    /// ])
    /// let files = try CCodeGenerator.generate(try CompiledChart(chart), name: "turnstile")
    /// ```
    public static func generate(_ compiled: CompiledChart, name: String, traceMain: Bool = false) throws(CCodegenError) -> CGeneratedFiles {
        let prefix = try chartName(name, fileName: nil)
        let c = compiled.tables.pointee
        var problems: [String] = []
        for s in 0..<Int(c.state_count) {
            let st = c.states[s]
            let what = s == 0 ? "the chart's start-up (onStart)" : "state '\(compiled.stateIDs[s])'"
            if st.on_entry != SC_NONE { problems.append("\(what) has entry actions") }
            if st.on_exit != SC_NONE { problems.append("\(what) has exit actions") }
            if st.flags & UInt8(SC_STATE_HAS_INVOKE) != 0 { problems.append("\(what) has invocations") }
            if st.flags & UInt8(SC_STATE_HAS_DONEDATA) != 0 { problems.append("\(what) has done data") }
            if st.initial != SC_NONE, c.transitions[Int(st.initial)].action != SC_NONE {
                problems.append(s == 0 ? "\(what) has actions" : "the default transition of \(what) has actions")
            }
            for k in 0..<Int(st.transition_count) {
                let t = c.transitions[Int(st.first_transition) + k]
                if t.guard != SC_NONE { problems.append("transition #\(k + 1) of \(what) has a guard") }
                if t.action != SC_NONE { problems.append("transition #\(k + 1) of \(what) has actions") }
            }
        }
        if !problems.isEmpty {
            throw CCodegenError(messages: problems.map {
                "\(compiled.name): error: \($0), which are Swift closures C cannot run; write them as C in the firmware (hooks), or generate from SCXML"
            })
        }
        let parts = CParts(compiled: compiled, names: CChartNames(compiled, prefix: prefix),
                           hooks: CHooks(log: false, timers: false, conditions: [], scripts: []),
                           origin: "the Swift chart '\(compiled.name)'", guardCases: [], actionCases: [],
                           chartFlags: 0)
        return CGeneratedFiles(name: prefix, header: CHeaderWriter.header(parts), source: CHeaderWriter.source(parts),
                               config: CConfigWriter.config(parts), traceMain: traceMain ? CTraceMainWriter.main(parts) : nil)
    }

    /// Compiles `definition` and generates C for it (see ``generate(_:name:traceMain:)``).
    public static func generate(_ definition: ChartDefinition, name: String, traceMain: Bool = false) throws -> CGeneratedFiles {
        try generate(try CompiledChart(definition), name: name, traceMain: traceMain)
    }

    /// Generates C for a typed chart (see ``generate(_:name:traceMain:)``): its state ids and
    /// event names become the C names.
    ///
    /// ```swift
    /// let files = try CCodeGenerator.generate(try TypedChart<Gate, Input>(name: "gate") {
    ///     StateNode(.locked) { On(.coin, to: .unlocked) }
    ///     StateNode(.unlocked) { On(.push, to: .locked) }
    /// }, name: "gate")
    /// ```
    public static func generate<State, Event>(_ chart: TypedChart<State, Event>, name: String,
                                              traceMain: Bool = false) throws(CCodegenError) -> CGeneratedFiles {
        try generate(chart.compiled, name: name, traceMain: traceMain)
    }

    private static func chartName(_ name: String?, fileName: String?) throws(CCodegenError) -> String {
        if let name {
            if let problem = CNameTable.problem(withChartName: name) {
                throw CCodegenError(messages: ["error: --name: \(problem)"])
            }
            return name
        }
        return CNameTable.chartName(fromFile: fileName ?? "chart")
    }
}

/// The hooks a chart's content calls, declared in the header for the firmware to implement.
struct CHooks {
    var log: Bool
    var timers: Bool
    var conditions: [(cName: String, function: String)]
    /// Inline `<script>`s: C name, location and code, in document order.
    var scripts: [(cName: String, location: SCXMLSourceLocation, code: String)]
}

/// Everything the header, source and main writers need.
struct CParts {
    let compiled: CompiledChart
    let names: CChartNames
    let hooks: CHooks
    /// Where the chart came from, for the files' first comment.
    let origin: String
    let guardCases: [(String, [String])]
    let actionCases: [(String, [String])]
    /// `sc_chart.flags` as written (``CGeneratedFiles/chartFlags``).
    let chartFlags: UInt32
    var prefix: String { names.prefix }
    /// The action ids whose generated C is empty: the tables name them `SC_NONE` (no call).
    var emptyActions: Set<UInt32> {
        let empty = Set(actionCases.filter { $0.1.isEmpty }.map(\.0))
        return Set(names.actions.filter { empty.contains($0.value) }.map(\.key))
    }
}

/// `write(2)`, named apart from ``CGeneratedFiles/write(to:)``.
private func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
