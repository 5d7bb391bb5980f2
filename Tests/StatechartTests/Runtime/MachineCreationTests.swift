import CStateCore
@testable import Statechart
import XCTest

/// What making a machine does and does not do (issue 14, memory): the chart is checked once,
/// when it is compiled, not for every machine; the delayed-event scheduler is made when the
/// machine first needs it; the core's options follow MachineOptions.
final class MachineCreationTests: XCTestCase {
    private func turnstile() throws -> CompiledChart {
        try CompiledChart(ChartDefinition(states: [
            StateDefinition("locked", transitions: [TransitionDefinition(on: ["coin"], to: ["unlocked"])]),
            StateDefinition("unlocked", transitions: [TransitionDefinition(on: ["push"], to: ["locked"])]),
        ]))
    }

    func testEveryMachineOfACompiledChartTellsTheCoreTheChartIsChecked() throws {
        let chart = try turnstile()
        XCTAssertEqual(chart.coreMachineFlags, SC_MACHINE_TRUSTED_CHART)
        XCTAssertEqual(MachineRuntime.coreOptions(chart, MachineOptions()).flags, SC_MACHINE_TRUSTED_CHART)
        var reference = MachineOptions()
        reference.runsFullAlgorithm = true
        XCTAssertEqual(MachineRuntime.coreOptions(chart, reference).flags,
                       SC_MACHINE_TRUSTED_CHART | SC_MACHINE_NO_PLANS)
        // Trusted, the machine still runs the chart as before.
        let machine = Machine(chart)
        try machine.start()
        XCTAssertEqual(try machine.send("coin"), .handled)
        XCTAssertEqual(machine.configuration, ["unlocked"])
        XCTAssertEqual(try machine.send("coin"), .unhandled)
        XCTAssertEqual(try machine.send("push"), .handled)
        XCTAssertEqual(machine.configuration, ["locked"])
    }

    func testTheCoreOptionsFollowMachineOptions() throws {
        let chart = try turnstile()
        var options = MachineOptions(maximumStepsPerMacrostep: 50)
        var core = MachineRuntime.coreOptions(chart, options)
        XCTAssertEqual(core.internal_queue_capacity, 0)          // the core's default for the chart
        XCTAssertEqual(core.external_queue_capacity, SC_QUEUE_NONE)
        XCTAssertEqual(core.max_steps, 50)
        options = MachineOptions(internalQueueCapacity: 16)
        options.maximumInternalQueueLength = 3
        core = MachineRuntime.coreOptions(chart, options)
        XCTAssertEqual(core.internal_queue_capacity, 3)          // never beyond the limit
        options.internalQueueCapacity = 0
        core = MachineRuntime.coreOptions(chart, options)
        XCTAssertEqual(core.internal_queue_capacity, 3)          // nor the core's default (up to 8)
        options = MachineOptions(internalQueueCapacity: 5)
        XCTAssertEqual(MachineRuntime.coreOptions(chart, options).internal_queue_capacity, 5)
    }

    func testTheCachedMachineSizeFollowsTheOptions() throws {
        let chart = try turnstile()
        var small = MachineRuntime.coreOptions(chart, MachineOptions(internalQueueCapacity: 2))
        var large = MachineRuntime.coreOptions(chart, MachineOptions(internalQueueCapacity: 6))
        let smallBytes = sc_machine_size(chart.tables, &small)
        let largeBytes = sc_machine_size(chart.tables, &large)
        // Four more queue slots of one sc_event (16 bytes) each.
        XCTAssertEqual(largeBytes - smallBytes, 4 * MemoryLayout<sc_event>.stride)
        // Asked in turns, the one-entry cache answers for the options asked each time.
        XCTAssertEqual(chart.coreMachineBytes(&small), smallBytes)
        XCTAssertEqual(chart.coreMachineBytes(&small), smallBytes)
        XCTAssertEqual(chart.coreMachineBytes(&large), largeBytes)
        XCTAssertEqual(chart.coreMachineBytes(&small), smallBytes)
        // And machines made with either work.
        for options in [MachineOptions(internalQueueCapacity: 2), MachineOptions(internalQueueCapacity: 6)] {
            let machine = Machine(chart, options: options)
            try machine.start()
            XCTAssertEqual(try machine.send("coin"), .handled)
        }
    }

    func testAMachineMakesItsSchedulerWhenItFirstSchedules() throws {
        let machine = Machine(try turnstile())
        try machine.start()
        XCTAssertEqual(try machine.send("coin"), .handled)
        XCTAssertNil(machine.existingScheduler)
        XCTAssertEqual(machine.pendingSendIDs, [])
        XCTAssertFalse(machine.cancel(sendID: "nothing"))
        XCTAssertNil(machine.existingScheduler)                 // asking made none
        XCTAssertTrue(machine.clock is SystemClock)
        machine.send("push", after: .seconds(3600), id: "later")
        XCTAssertNotNil(machine.existingScheduler)
        XCTAssertEqual(machine.pendingSendIDs, ["later"])
        XCTAssertTrue(machine.cancel(sendID: "later"))
        XCTAssertEqual(machine.pendingSendIDs, [])
    }

    func testAMachineStoppedBeforeItScheduledDropsLaterDelayedEvents() throws {
        let machine = Machine(try turnstile())
        try machine.start()
        machine.stop()
        machine.send("push", after: .seconds(1), id: "late")
        XCTAssertEqual(machine.pendingSendIDs, [])
    }

    func testAMachineOnAnotherClockKeepsThatClock() throws {
        let clock = TestClock()
        let machine = Machine(try turnstile(), clock: clock)
        XCTAssertTrue(machine.clock as? TestClock === clock)
        try machine.start()
        machine.send("coin", after: .seconds(2))
        clock.advance(by: .seconds(2))
        XCTAssertEqual(machine.configuration, ["unlocked"])
    }
}
