// The ordo-one/benchmark suite: dispatch of the benchmark charts through the C core, the
// typed Swift API and SCXML machines. Each iteration sends 1,000 events (scalingFactor .kilo),
// so the reported wall clock is per event, and mallocCountTotal is mallocs per event.
//
//   cd Benchmarks && swift package --scratch-path .build-bench benchmark --target ChartDispatch
//
// The harness runs threads of its own, so the typed API's figures here match the comparison
// tool's "other threads alive" column (the machine lock uses atomics once a process has threads).
import Benchmark
import BenchCharts

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(2))

    for chart in BenchChart.dispatched {
        let factories: [(String, () throws -> Runner)] = [
            ("C core", { try Runner.core(CoreChart(chart)) }),
            ("Swift typed", { try Runner.typed(chart) }),
            ("SCXML", { try Runner.scxml(chart) }),
        ]
        for (label, make) in factories {
            guard let runner = try? make() else { continue }
            // 1,000 events per iteration: whole periods of every chart's cycle (4 or 8 events).
            Benchmark("\(chart.rawValue)/\(label)", configuration: configuration) { benchmark in
                try runner.dispatch(benchmark.scaledIterations.count)
                blackHole(runner.configuration())
            }
        }
    }
}
