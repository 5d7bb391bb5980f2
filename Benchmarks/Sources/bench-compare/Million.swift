import BenchCharts
import CAllocationCounter
import CBenchHost
import Foundation
import Statechart

/// A million typed turnstile machines created and started in one process: the time it takes,
/// the process's peak resident memory, and the heap each machine holds (glibc's own statistics,
/// chunk headers included). Run as its own process (`bench-compare million N`) so the peak RSS
/// is this work's alone; scripts/bench.sh merges its key/value lines into the table.
enum MillionMachines {
    struct Result {
        var count = 0
        var cpuSeconds = 0.0           // this thread's CPU time to create and start them all
        var wallSeconds = 0.0
        var peakRSSBytes = 0           // getrusage ru_maxrss of the whole process
        var heapBytesEach = 0.0        // mallinfo2 in-use bytes per machine, malloc overhead included
    }

    static func run(count: Int) throws -> Result {
        let chart = try turnstileChart()
        var machines: [StateMachine<TurnstileState, TurnstileEvent>] = []
        machines.reserveCapacity(count)                     // the array is not counted per machine
        _ = try { let m = StateMachine(chart); try m.start(); return m }()   // warm lazy globals
        let heapBefore = allocation_counter_heap_in_use()
        let cpuStart = bench_thread_cpu_ns(), wallStart = bench_now_ns()
        for _ in 0..<count {
            let machine = StateMachine(chart)
            try machine.start()
            machines.append(machine)
        }
        let cpu = bench_thread_cpu_ns() - cpuStart, wall = bench_now_ns() - wallStart
        let heapAfter = allocation_counter_heap_in_use()
        // Read every machine back: all started, all in `locked`, none optimised away.
        var locked = 0
        for machine in machines where machine.isActive(.locked) { locked += 1 }
        guard locked == count else { throw BenchError("million: \(count - locked) machines not in locked") }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let result = Result(count: count, cpuSeconds: Double(cpu) / 1e9, wallSeconds: Double(wall) / 1e9,
                            peakRSSBytes: Int(usage.ru_maxrss) * 1024,
                            heapBytesEach: Double(heapAfter - heapBefore) / Double(count))
        withExtendedLifetime(machines) {}
        return result
    }

    /// Key/value lines for the comparison table (`--results FILE`).
    static func tsv(_ r: Result) -> String {
        """
        million.count\t\(r.count)
        million.cpu_s\t\(r.cpuSeconds)
        million.wall_s\t\(r.wallSeconds)
        million.peak_rss\t\(r.peakRSSBytes)
        million.heap_each\t\(r.heapBytesEach)

        """
    }
}
