import Statechart

/// States of the typed test charts: one enum covers every chart, so charts can be compared.
enum S: String, Hashable, Sendable, Codable {
    case idle, running, paused, done, off, on, a, a1, a2, b, b1, b2, c, p, h, x, y, z
    case player, stopped, playing, track1, track2, history, deep
}

/// Payload-free events of the typed test charts.
enum E: ChartEvent, Codable {
    case start, pause, resume, stop, go, next, back, toggle, tick, reset, x, y, z
}

/// Events with payloads.
enum Media: ChartEvent, Codable {
    case play, stop, seek(to: Double), load(url: String, autoplay: Bool)

    enum Name: Hashable, Sendable { case play, stop, seek, load }
    var name: Name {
        switch self {
        case .play: .play
        case .stop: .stop
        case .seek: .seek
        case .load: .load
        }
    }
}

extension Log {
    /// An action that logs `entry`.
    func typed<State, Event>(_ entry: String) -> TypedAction<State, Event> {
        { _ in self.add(entry) }
    }
}

/// Builders for typed charts whose states log their entry and exit, like `Charts` for untyped ones.
struct TypedCharts<State: Hashable & Sendable, Event: ChartEvent> {
    let log = Log()

    func enter(_ name: String) -> OnEntry<State, Event> {
        let log = self.log
        return OnEntry { _ in log.add("enter \(name)") }
    }

    func exit(_ name: String) -> OnExit<State, Event> {
        let log = self.log
        return OnExit { _ in log.add("exit \(name)") }
    }

    /// A transition action that logs "take <name>".
    func take(_ name: String) -> TypedAction<State, Event> {
        let log = self.log
        return { _ in log.add("take \(name)") }
    }

    /// Entry and exit logging for `name`.
    @ChartBuilder<State, Event>
    func logged(_ name: String) -> ChartContent<State, Event> {
        enter(name)
        exit(name)
    }
}
