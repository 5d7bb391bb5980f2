import Statechart

/// A media player with parallel regions: playback and audio run side by side while the
/// player is on. Playback remembers where it was across power cycles (deep history), tracks
/// advance on their own (``After``), seeking carries a payload, and a sleep timer switches
/// the player off.
///
/// ```
/// off ──power──▶ on ┬ playback (deep history): stopped ⇄ playing { track1 → track2 → track3 } ⇄ paused
///                   └ audio:    normal ⇄ muted
/// ```
///
/// ```swift
/// let player = try MediaPlayer(output: speaker, clock: clock)
/// try player.machine.send(.power)
/// try player.machine.send(.play)
/// try player.machine.send(.seek(to: 42))
/// player.machine.configuration     // [.track1, .normal]
/// ```
public final class MediaPlayer: Sendable {
    public enum State: String, Hashable, Sendable, Codable {
        case off, on
        case playback, resume, stopped, playing, track1, track2, track3, paused
        case audio, normal, muted
    }

    public enum Event: ChartEvent, Codable {
        case power, play, pause, stop, next, mute, unmute
        case seek(to: Double)
        case sleep(after: Duration)

        public enum Name: Hashable, Sendable { case power, play, pause, stop, next, mute, unmute, seek, sleep }

        public var name: Name {
            switch self {
            case .power: .power
            case .play: .play
            case .pause: .pause
            case .stop: .stop
            case .next: .next
            case .mute: .mute
            case .unmute: .unmute
            case .seek: .seek
            case .sleep: .sleep
            }
        }
    }

    /// What the player's actions drive.
    public protocol Output: Sendable {
        func play(track: Int)
        func stopPlaying()
        func seek(to seconds: Double)
        func setMuted(_ muted: Bool)
    }

    /// How long a track plays before the player moves on.
    public static let trackLength: Duration = .seconds(180)

    public static func chart(output: some Output) throws -> TypedChart<State, Event> {
        @ChartBuilder<State, Event>
        func track(_ state: State, number: Int, next: State) -> ChartContent<State, Event> {
            StateNode(state) {
                OnEntry { _ in output.play(track: number) }
                After(trackLength, to: next)
                On(.next, to: next)
            }
        }

        return try TypedChart(name: "media-player") {
            StateNode(.off) {
                On(.power, to: .resume)        // back where playback was, through its history
            }
            Parallel(.on) {
                StateNode(.playback) {
                    History(.resume, .deep, default: .stopped)
                    StateNode(.stopped) {
                        On(.play, to: .playing)
                    }
                    StateNode(.playing) {
                        OnExit { _ in output.stopPlaying() }
                        track(.track1, number: 1, next: .track2)
                        track(.track2, number: 2, next: .track3)
                        track(.track3, number: 3, next: .stopped)
                        On(.pause, to: .paused)
                        On(.seek) { ctx in
                            if case .seek(let seconds)? = ctx.event { output.seek(to: seconds) }
                        }
                    }
                    StateNode(.paused) {
                        On(.play, to: .playing)
                    }
                    On(.stop, to: .stopped)
                }
                StateNode(.audio) {
                    StateNode(.normal) { On(.mute, to: .muted) { _ in output.setMuted(true) } }
                    StateNode(.muted) { On(.unmute, to: .normal) { _ in output.setMuted(false) } }
                }
                On(.sleep) { ctx in
                    if case .sleep(let delay)? = ctx.event { ctx.send(.power, after: delay, id: "sleep") }
                }
                On(.power, to: .off) { ctx in ctx.cancel(sendID: "sleep") }
            }
        }
    }

    public let machine: StateMachine<State, Event>

    /// A started player, switched off.
    public init(output: some Output, clock: any MachineClock = SystemClock.shared) throws {
        machine = StateMachine(try Self.chart(output: output), clock: clock)
        try machine.start()
    }
}
