// The ordo-one/benchmark suite: loading the 5,000-state chart from SCXML (parse, validate,
// compile, create the machine), with its allocations and memory.
//
//   cd Benchmarks && swift package --scratch-path .build-bench benchmark --target ChartLoad
import BenchCharts
import Benchmark
import Foundation
import StatechartSCXML

let benchmarks: @Sendable () -> Void = {
    let url = BenchChart.large.documentURL
    Benchmark("large/load+compile",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, .memoryLeaked],
                                   maxDuration: .seconds(5), maxIterations: 50)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try SCXMLMachine(contentsOf: url))
        }
    }
}
