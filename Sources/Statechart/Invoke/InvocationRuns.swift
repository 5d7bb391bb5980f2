import Synchronization

/// The invocations one ``StateMachine`` is running, by the chart's number for each ``Invoke``.
///
/// Each start takes a new generation. Results carry the generation they were started under, and
/// the delivering transition (which runs inside a macrostep, with the machine held) raises them
/// only while that generation is still the current, uncancelled one: a result that arrives
/// after its state was exited, or after the state was left and entered again, is dropped.
final class InvocationRuns: Sendable {
    private struct Run {
        var generation: UInt64 = 0
        var running = false
        var task: Task<Void, Never>?
    }

    private let runs = Mutex<[Int: Run]>([:])

    /// Marks invocation `number` started and returns its new generation.
    func begin(_ number: Int) -> UInt64 {
        runs.withLock { runs in
            var run = runs[number] ?? Run()
            run.generation &+= 1
            run.running = true
            run.task = nil
            runs[number] = run
            return run.generation
        }
    }

    /// Keeps the task of generation `generation`, to cancel it on exit.
    func attach(_ task: Task<Void, Never>, to number: Int, generation: UInt64) {
        let stale = runs.withLock { runs -> Bool in
            guard runs[number]?.generation == generation, runs[number]?.running == true else { return true }
            runs[number]?.task = task
            return false
        }
        if stale { task.cancel() }
    }

    /// Cancels invocation `number`: its task is cancelled and its later results are dropped.
    func cancel(_ number: Int) {
        let task = runs.withLock { runs -> Task<Void, Never>? in
            guard var run = runs[number] else { return nil }
            run.running = false
            let task = run.task
            run.task = nil
            runs[number] = run
            return task
        }
        task?.cancel()
    }

    /// Whether a result of `generation` may still be delivered.
    func isCurrent(_ number: Int, generation: UInt64) -> Bool {
        runs.withLock { runs in
            guard let run = runs[number] else { return false }
            return run.running && run.generation == generation
        }
    }

    deinit {
        // The machine is gone: nothing could receive what the tasks would produce.
        runs.withLock { runs in
            for run in runs.values { run.task?.cancel() }
        }
    }
}

/// The payload of the private event that carries an invocation's result into the machine.
struct InvocationDelivery<Event: Sendable>: Sendable {
    var generation: UInt64
    var event: Event
}

extension Machine {
    /// Sends an invocation's result from its task, through the serialized send path. Errors
    /// (a runaway macrostep the result started) go to the error observers: no caller waits.
    func deliverInvocationResult(_ event: Event) {
        do {
            _ = try send(event)
        } catch let error as MachineError {
            access { runtime.reportError(error) }
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }
}
