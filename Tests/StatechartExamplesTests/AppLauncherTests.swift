import Statechart
import StatechartExamples
import XCTest

final class AppLauncherTests: XCTestCase {
    final class FakeServices: AppLauncher.Services, @unchecked Sendable {
        let recorder = Recorder()
        var needsUpgrade: Bool
        var hasSession: Bool

        init(needsUpgrade: Bool, hasSession: Bool) {
            self.needsUpgrade = needsUpgrade
            self.hasSession = hasSession
        }

        func startUpgrade() { recorder.add("upgrade") }
        func startIndexing() { recorder.add("index") }
        func signIn(_ user: String) { recorder.add("sign in \(user)") }
        func signOut() { recorder.add("sign out") }
        func show(_ screen: String) { recorder.add("show \(screen)") }
    }

    func testUpgradeThenIndexThenLogin() throws {
        let services = FakeServices(needsUpgrade: true, hasSession: false)
        let launcher = try AppLauncher(services: services, clock: TestClock())
        XCTAssertEqual(launcher.machine.configuration, [.upgrading])
        try launcher.machine.send(.upgradeFinished)
        XCTAssertEqual(launcher.machine.configuration, [.indexing])
        try launcher.machine.send(.indexFinished)
        XCTAssertEqual(launcher.machine.configuration, [.loggedOut])
        try launcher.machine.send(.login(user: "ada"))
        XCTAssertEqual(launcher.machine.configuration, [.home])
        XCTAssertEqual(services.recorder.take(), ["upgrade", "index", "show login", "sign in ada", "show home"])
    }

    func testAnExistingSessionSkipsTheLoginAndNoUpgradeSkipsUpgrading() throws {
        let services = FakeServices(needsUpgrade: false, hasSession: true)
        let launcher = try AppLauncher(services: services, clock: TestClock())
        XCTAssertEqual(launcher.machine.configuration, [.indexing])
        let result = try launcher.machine.transition(on: .indexFinished)
        XCTAssertEqual(result.after, [.home])
        XCTAssertEqual(result.transitions.map(\.record.description),
                       ["indexing -indexFinished-> launched", "launching -done.state.launching-> loggedIn"])
        XCTAssertEqual(services.recorder.take(), ["index", "show home"])
    }

    func testAnExpiredSessionReturnsToTheSameScreenAfterLoggingInAgain() throws {
        let services = FakeServices(needsUpgrade: false, hasSession: true)
        let launcher = try AppLauncher(services: services, clock: TestClock())
        try launcher.machine.send(.indexFinished)
        try launcher.machine.send(.openSettings)
        try launcher.machine.send(.sessionExpired)         // written once, fires from any state
        XCTAssertEqual(launcher.machine.configuration, [.loggedOut])
        try launcher.machine.send(.login(user: "grace"))
        XCTAssertEqual(launcher.machine.configuration, [.settings])
        try launcher.machine.send(.logout)
        XCTAssertEqual(services.recorder.take(), ["index", "show home", "show settings", "show login",
                                                  "sign in grace", "show settings", "sign out", "show login"])
    }

    func testASessionCanExpireWhileLaunching() throws {
        let services = FakeServices(needsUpgrade: true, hasSession: true)
        let launcher = try AppLauncher(services: services, clock: TestClock())
        try launcher.machine.send(.sessionExpired)
        XCTAssertEqual(launcher.machine.configuration, [.loggedOut])
        XCTAssertEqual(try launcher.machine.send(.upgradeFinished), .unhandled)
    }
}
