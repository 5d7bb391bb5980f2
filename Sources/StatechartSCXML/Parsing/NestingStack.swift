import Foundation

/// Runs the passes whose recursion follows a document's element nesting (building the model,
/// validating it, the datamodel's check, building and compiling the chart) on a thread whose
/// stack fits the nesting, when the document is deeper than a thread's default stack is sure to
/// take.
///
/// Why: a level of nesting costs a few kilobytes of stack per recursive pass in a debug build,
/// so a document nested a thousand levels deep overflows an 8 MiB stack, and
/// ``SCXMLParser/Limits/maxDepth`` allows 4,096 levels. Turning each pass into a loop over an
/// explicit stack would spread that concern over every pass; one thread per deep load keeps
/// them as they read. Documents of ordinary depth run on the caller's thread.
enum NestingStack {
    /// Nesting that runs on the caller's thread: a few hundred KiB of stack in a debug build,
    /// which any thread a host loads documents on has.
    static let inlineDepth = 48
    /// Stack bytes reserved per level of nesting (a debug build uses about 8 KiB per level in
    /// its deepest pass); the memory is only committed as it is used.
    static let bytesPerLevel = 32 * 1024

    /// `body()`, on a thread with room for `depth` levels of nesting when it is deep.
    static func run<T>(depth: Int, _ body: () -> T) -> T {
        if depth <= inlineDepth { return body() }
        return withoutActuallyEscaping(body) { body in
            let work = Work(body)
            let thread = Thread { work.run() }
            thread.stackSize = 8 * 1024 * 1024 + depth * bytesPerLevel
            thread.start()
            work.done.wait()
            return work.result!
        }
    }

    /// `body()`, on a thread with room for `depth` levels of nesting when it is deep; rethrows.
    static func run<T>(depth: Int, _ body: () throws -> T) throws -> T {
        try run(depth: depth) { Result { try body() } }.get()
    }

    /// The work handed to the thread; the caller waits for `done`, so nothing is shared at once.
    /// The body is let go before `done`: `withoutActuallyEscaping` checks that nothing holds it
    /// once the caller returns, and the thread may outlive the call by a moment.
    private final class Work<T>: @unchecked Sendable {
        private var body: (() -> T)?
        var result: T?
        let done = DispatchSemaphore(value: 0)

        init(_ body: @escaping () -> T) { self.body = body }

        func run() {
            result = body?()
            body = nil
            done.signal()
        }
    }
}
