import BenchCharts
import CAllocationCounter
import CBenchHost
import Foundation

/// Median of a non-empty sample.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// The clock every run is timed with: this thread's CPU time (other processes' share of a busy
/// machine is not counted), or the monotonic clock with `--wall` (bench_use_wall_clock).
func nanoseconds() -> UInt64 { bench_run_clock_ns() }

/// Dispatch timings of several runners on one chart, interleaved round by round so that the
/// machine's noise falls on all of them alike.
struct DispatchMeasurement {
    var nsPerEvent: [String: Double] = [:]          // median per runner label
    var samples: [String: [Double]] = [:]
    var allocationsPerEvent: [String: Double] = [:]
    var eventsPerRun: [String: Int] = [:]
    var guardsPerEvent: Double?
    var actionsPerEvent: Double?
}

enum Measure {
    /// Checks that every runner walks through the same configurations as the first (the C core)
    /// for two full periods, and runs the same number of guards and actions.
    static func validate(_ runners: [Runner], chart: BenchChart, period: Int) throws
        -> (guards: Double?, actions: Double?) {
        let reference = runners[0]
        for step in 0..<period {
            let expected = reference.configuration()
            for runner in runners.dropFirst() where runner.configuration() != expected {
                throw BenchError("\(chart.rawValue): after \(step) events \(runner.label) is in \(runner.configuration()), the C core in \(expected)")
            }
            for runner in runners { try runner.dispatch(1) }
        }
        for runner in runners { runner.resetCounts() }
        let events = period * 10
        for runner in runners { try runner.dispatch(events) }
        let (guards, actions) = reference.counts()
        for runner in runners.dropFirst() {
            let (g, a) = runner.counts()
            if let g, g != guards {
                throw BenchError("\(chart.rawValue): \(runner.label) evaluated \(g) guards, the C core \(guards ?? 0)")
            }
            if let a, a != actions {
                throw BenchError("\(chart.rawValue): \(runner.label) ran \(a) actions, the C core \(actions ?? 0)")
            }
        }
        return (guards.map { Double($0) / Double(events) }, actions.map { Double($0) / Double(events) })
    }

    /// Events per run so one run takes about `millis`, a multiple of `period`.
    static func calibrate(_ runner: Runner, period: Int, millis: Double) throws -> Int {
        var count = period
        while true {
            let start = nanoseconds()
            try runner.dispatch(count)
            let elapsed = Double(nanoseconds() - start)
            if elapsed > millis * 1e6 / 10 || count >= 1 << 30 {
                let wanted = Int(Double(count) * millis * 1e6 / max(elapsed, 1))
                return max(period, wanted / period * period)
            }
            count *= 4
        }
    }

    static func dispatch(_ runners: [Runner], chart: BenchChart, period: Int, rounds: Int,
                         millis: Double) throws -> DispatchMeasurement {
        var result = DispatchMeasurement()
        (result.guardsPerEvent, result.actionsPerEvent) = try validate(runners, chart: chart, period: period)
        let home = runners.map { $0.configuration() }
        var counts: [Int] = []
        for runner in runners {
            let count = try calibrate(runner, period: period, millis: millis)
            counts.append(count)
            result.eventsPerRun[runner.label] = count
        }
        for round in 0..<rounds {
            // Rotate the order each round so no runner always follows the same one.
            for k in runners.indices {
                let i = (k + round) % runners.count
                let runner = runners[i]
                let start = nanoseconds()
                try runner.dispatch(counts[i])
                let elapsed = nanoseconds() - start
                // Read the state back: the loop cannot be folded away, and it must end at home.
                guard runner.configuration() == home[i] else {
                    throw BenchError("\(chart.rawValue): \(runner.label) did not return to \(home[i])")
                }
                result.samples[runner.label, default: []].append(Double(elapsed) / Double(counts[i]))
            }
        }
        for (label, values) in result.samples { result.nsPerEvent[label] = median(values) }
        if allocation_counter_available() {
            for runner in runners {
                let events = period * 1_000
                try runner.dispatch(period)       // warm: any lazily grown buffer is grown
                allocation_counter_start()
                try runner.dispatch(events)
                allocation_counter_stop()
                result.allocationsPerEvent[runner.label] = Double(allocation_counter_calls()) / Double(events)
            }
        }
        return result
    }
}
