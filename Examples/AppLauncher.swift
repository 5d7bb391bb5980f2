import Statechart

/// An app's launch flow: upgrade the local database if needed, rebuild the search index, then
/// show the logged-in or logged-out experience, and handle logging in and out for the rest of
/// the session.
///
/// It shows compound states with a final state and ``OnDone``, eventless transitions that
/// decide where to go (``Always`` with guards), events with payloads (`login(user:)`), a
/// transition written at the top level that fires from any state (`sessionExpired`), and
/// history (an expired session returns to the screen the user was on after logging in again).
///
/// ```swift
/// let launcher = try AppLauncher(services: services)
/// // upgrading, then indexing, then .loggedOut or .home
/// try launcher.machine.send(.login(user: "ada"))
/// ```
public final class AppLauncher: Sendable {
    public enum State: String, Hashable, Sendable, Codable {
        case launching, checkingVersion, upgrading, indexing, launched
        case loggedOut, loggedIn, home, settings, resume
    }

    public enum Event: ChartEvent, Codable {
        case upgradeFinished, indexFinished
        case login(user: String), logout, sessionExpired
        case openSettings, closeSettings

        /// Event names without payloads, for transitions.
        public enum Name: Hashable, Sendable {
            case upgradeFinished, indexFinished, login, logout, sessionExpired, openSettings, closeSettings
        }

        public var name: Name {
            switch self {
            case .upgradeFinished: .upgradeFinished
            case .indexFinished: .indexFinished
            case .login: .login
            case .logout: .logout
            case .sessionExpired: .sessionExpired
            case .openSettings: .openSettings
            case .closeSettings: .closeSettings
            }
        }
    }

    /// The app's services the launcher drives.
    public protocol Services: Sendable {
        var needsUpgrade: Bool { get }
        var hasSession: Bool { get }
        func startUpgrade()
        func startIndexing()
        func signIn(_ user: String)
        func signOut()
        func show(_ screen: String)
    }

    public static func chart(services: some Services) throws -> TypedChart<State, Event> {
        try TypedChart(name: "app-launcher") {
            StateNode(.launching) {
                StateNode(.checkingVersion) {
                    Always(to: .upgrading, guard: { _ in services.needsUpgrade })
                    Always(to: .indexing)
                }
                StateNode(.upgrading) {
                    OnEntry { _ in services.startUpgrade() }
                    On(.upgradeFinished, to: .indexing)
                }
                StateNode(.indexing) {
                    OnEntry { _ in services.startIndexing() }
                    On(.indexFinished, to: .launched)
                }
                Final(.launched)
                OnDone(to: .loggedIn, guard: { _ in services.hasSession })
                OnDone(to: .loggedOut)
            }
            StateNode(.loggedOut) {
                OnEntry { _ in services.show("login") }
                On(.login, to: .resume) { ctx in
                    if case .login(let user)? = ctx.event { services.signIn(user) }
                }
            }
            StateNode(.loggedIn) {
                History(.resume, default: .home)
                StateNode(.home) {
                    OnEntry { _ in services.show("home") }
                    On(.openSettings, to: .settings)
                }
                StateNode(.settings) {
                    OnEntry { _ in services.show("settings") }
                    On(.closeSettings, to: .home)
                }
                On(.logout, to: .loggedOut) { _ in services.signOut() }
            }
            // From any state: a session can expire while launching or logged in.
            On(.sessionExpired, to: .loggedOut)
        }
    }

    public let machine: StateMachine<State, Event>

    /// A started launcher.
    public init(services: some Services, clock: any MachineClock = SystemClock.shared) throws {
        machine = StateMachine(try Self.chart(services: services), clock: clock)
        try machine.start()
    }
}
