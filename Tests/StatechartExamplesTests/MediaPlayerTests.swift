import Foundation
import Statechart
import StatechartExamples
import XCTest

final class MediaPlayerTests: XCTestCase {
    struct Speaker: MediaPlayer.Output {
        let recorder: Recorder
        func play(track: Int) { recorder.add("play \(track)") }
        func stopPlaying() { recorder.add("stop") }
        func seek(to seconds: Double) { recorder.add("seek \(seconds)") }
        func setMuted(_ muted: Bool) { recorder.add(muted ? "mute" : "unmute") }
    }

    let clock = TestClock()
    let recorder = Recorder()

    func player() throws -> MediaPlayer {
        try MediaPlayer(output: Speaker(recorder: recorder), clock: clock)
    }

    func testRegionsRunSideBySide() throws {
        let player = try player()
        XCTAssertEqual(player.machine.configuration, [.off])
        try player.machine.send(.power)
        XCTAssertEqual(player.machine.configuration, [.stopped, .normal])
        try player.machine.send(.play)
        try player.machine.send(.mute)
        try player.machine.send(.seek(to: 42))
        XCTAssertEqual(player.machine.configuration, [.track1, .muted])
        XCTAssertEqual(player.machine.activeStates, [.on, .playback, .playing, .track1, .audio, .muted])
        XCTAssertEqual(recorder.take(), ["play 1", "mute", "seek 42.0"])
    }

    func testTracksAdvanceOnTheirOwnAndStopAfterTheLast() throws {
        let player = try player()
        try player.machine.send(.power)
        try player.machine.send(.play)
        clock.advance(by: MediaPlayer.trackLength)
        XCTAssertEqual(player.machine.configuration, [.track2, .normal])
        try player.machine.send(.next)                 // skipping restarts the track timer
        clock.advance(by: MediaPlayer.trackLength - .seconds(1))
        XCTAssertEqual(player.machine.configuration, [.track3, .normal])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(player.machine.configuration, [.stopped, .normal])
        XCTAssertEqual(recorder.take(), ["play 1", "play 2", "play 3", "stop"])
    }

    func testPowerCyclingResumesPlaybackWhereItWas() throws {
        let player = try player()
        try player.machine.send(.power)
        try player.machine.send(.play)
        try player.machine.send(.next)
        try player.machine.send(.pause)
        try player.machine.send(.mute)
        try player.machine.send(.power)
        XCTAssertEqual(player.machine.configuration, [.off])
        try player.machine.send(.power)
        // Playback comes back paused on track 2 (deep history); audio starts over unmuted.
        XCTAssertEqual(player.machine.configuration, [.paused, .normal])
        try player.machine.send(.play)
        XCTAssertEqual(player.machine.configuration, [.track1, .normal])
        XCTAssertEqual(recorder.take(), ["play 1", "play 2", "stop", "mute", "play 1"])
    }

    func testTheSleepTimerSwitchesThePlayerOffUnlessItIsSwitchedOffFirst() throws {
        let player = try player()
        try player.machine.send(.power)
        try player.machine.send(.play)
        try player.machine.send(.sleep(after: .seconds(60)))
        XCTAssertEqual(player.machine.pendingSendIDs.sorted(), ["sleep", "statechart.after.1"])
        clock.advance(by: .seconds(60))
        XCTAssertEqual(player.machine.configuration, [.off])
        XCTAssertEqual(player.machine.pendingSendIDs, [])

        try player.machine.send(.power)
        try player.machine.send(.sleep(after: .seconds(60)))
        try player.machine.send(.power)
        try player.machine.send(.power)
        clock.advance(by: .seconds(120))
        XCTAssertTrue(player.machine.isActive(.on), "switching off cancelled the sleep timer")
    }

    func testASnapshotOfAPlayingPlayerRestoresIntoAnotherProcess() throws {
        let player = try player()
        try player.machine.send(.power)
        try player.machine.send(.play)
        clock.advance(by: .seconds(100))
        let snapshot = try player.machine.snapshot()
        let json = try JSONEncoder().encode(snapshot)

        let otherClock = TestClock()
        let chart = try MediaPlayer.chart(output: Speaker(recorder: recorder))
        let restored = try StateMachine(chart, restoring: JSONDecoder().decode(StateMachine<MediaPlayer.State, MediaPlayer.Event>.Snapshot.self, from: json), clock: otherClock)
        XCTAssertEqual(restored.configuration, [.track1, .normal])
        _ = recorder.take()
        otherClock.advance(by: .seconds(79))
        XCTAssertEqual(restored.configuration, [.track1, .normal])
        otherClock.advance(by: .seconds(1))              // 180 s in all: the next track
        XCTAssertEqual(restored.configuration, [.track2, .normal])
        XCTAssertEqual(recorder.take(), ["play 2"])
    }
}
