@testable import Statechart
import XCTest

/// The confined machine (``LocalStateMachine``, the byte-table send and the direct dispatch)
/// against a ``StateMachine`` whose core runs the whole algorithm for every event (no recorded
/// plans), on random charts: event by event, the same outcome or error, the same actions in the
/// same order, the same active states.
final class ConfinedDifferentialTests: XCTestCase {
    /// Seeds run in the normal test run; a failure names its seed and prints its chart.
    static let seeds: ClosedRange<UInt64> = 1...300
    static let eventsPerSeed = 16

    func testConfinedMachineMatchesTheFullAlgorithmOnRandomCharts() throws {
        var compared = 0, rejected = 0
        var outcomes: [String: Int] = [:]
        for seed in Self.seeds {
            switch try compare(seed: seed, outcomes: &outcomes) {
            case .compared: compared += 1
            case .rejected: rejected += 1
            }
        }
        // Most random charts are legal; the rest must be rejected by both the same way.
        XCTAssertGreaterThan(compared, Int(Self.seeds.count) * 3 / 4, "\(compared) compared, \(rejected) rejected")
        // The charts must exercise more than the quiet path: errors, halts, unhandled events.
        XCTAssertGreaterThan(outcomes["handled", default: 0], 1000)
        XCTAssertGreaterThan(outcomes["unhandled", default: 0], 100)
        XCTAssertGreaterThan(outcomes["halted", default: 0], 10)
        XCTAssertGreaterThan(outcomes["error", default: 0], 10)
        print("ConfinedDifferentialTests: \(compared) random charts compared event by event, \(rejected) rejected by the compiler (seeds \(Self.seeds)); sends: \(outcomes.sorted { $0.key < $1.key })")
    }

    enum Result { case compared, rejected }

    func compare(seed: UInt64, outcomes: inout [String: Int]) throws -> Result {
        let chart = RandomChart(seed: seed)
        let referenceLog = ActionLog(), confinedLog = ActionLog()
        let referenceChart: TypedChart<Int, RandomEvent>, confinedChart: TypedChart<Int, RandomEvent>
        do {
            referenceChart = try TypedChart(name: "random\(seed)") { chart.content(log: referenceLog) }
        } catch {
            XCTAssertThrowsError(try TypedChart(name: "random\(seed)") { chart.content(log: confinedLog) })
            return .rejected
        }
        confinedChart = try TypedChart(name: "random\(seed)") { chart.content(log: confinedLog) }

        var options = MachineOptions(maximumStepsPerMacrostep: 200)
        options.maximumQueuedEventsPerSend = 50
        var fullAlgorithm = options
        fullAlgorithm.runsFullAlgorithm = true
        let reference = StateMachine(referenceChart, options: fullAlgorithm, clock: TestClock())
        let confined = LocalStateMachine(confinedChart, options: options, clock: TestClock())

        var random = SeededRandom(seed: seed &* 7919)
        var step = "start"
        // Whether they agree; the first difference of a seed is reported, with its chart.
        func check(_ expected: String, _ actual: String, _ referenceFrom: Int, _ confinedFrom: Int) -> Bool {
            let expectedActions = referenceLog.since(referenceFrom), actualActions = confinedLog.since(confinedFrom)
            let expectedStates = reference.activeStates, actualStates = confined.activeStates
            if expected != actual || expectedActions != actualActions || expectedStates != actualStates {
                XCTFail("""
                    seed \(seed), \(step): the confined machine differs from the full algorithm
                      outcome   \(actual) / expected \(expected)
                      actions   \(actualActions) / expected \(expectedActions)
                      states    \(actualStates) / expected \(expectedStates)
                    chart:
                    \(chart)
                    """)
                return false
            }
            return true
        }
        func outcome(_ body: () throws -> SendOutcome) -> String {
            do { return "\(try body())" } catch { return "error: \(error)" }
        }
        func started(_ body: () throws -> Void) -> String {
            do { try body(); return "started" } catch { return "error: \(error)" }
        }

        var r = referenceLog.count, c = confinedLog.count
        guard check(started { try reference.start() }, started { try confined.start() }, r, c) else { return .compared }
        for _ in 0..<Self.eventsPerSeed {
            let event = RandomEvent.allCases[random.below(RandomEvent.allCases.count)]
            step = "send(.\(event))"
            r = referenceLog.count
            c = confinedLog.count
            let expected = outcome { try reference.send(event) }
            outcomes[String(expected.prefix { $0 != ":" }), default: 0] += 1
            guard check(expected, outcome { try confined.send(event) }, r, c) else { return .compared }
        }
        XCTAssertEqual(reference.isFinished, confined.isFinished, "seed \(seed): isFinished")
        return .compared
    }
}
