import Statechart

/// An app's sign-in screen as a chart: the network call is an ``Invoke`` (cancelled if the user
/// gives up), the attempts are the machine's context, failed attempts are retried after a
/// pause up to a limit, and the screen is drawn from an ``ObservableStateMachine``.
///
/// ```swift
/// let login = try LoginFlow(authenticator: api)
/// try login.submit(user: "ann", password: "secret")
/// login.view.isActive(.signingIn)      // true until the call returns
/// ```
public final class LoginFlow: Sendable {
    public enum Screen: String, Hashable, Sendable, Codable { case form, signingIn, waitingToRetry, signedIn, lockedOut }

    public enum Event: ChartEvent {
        case submit(user: String, password: String), succeeded(token: String), failed(reason: String), cancel, signOut

        public enum Name: Hashable, Sendable { case submit, succeeded, failed, cancel, signOut }
        public var name: Name {
            switch self {
            case .submit: .submit
            case .succeeded: .succeeded
            case .failed: .failed
            case .cancel: .cancel
            case .signOut: .signOut
            }
        }

        /// The charts these events drive keep a ``Progress`` as their context.
        public typealias Context = Progress
    }

    /// The machine's context: who is signing in, how it went so far.
    public struct Progress: Sendable, Equatable, Codable {
        public var user = ""
        public var password = ""
        public var attempts = 0
        public var lastError: String?
        public var token: String?
        public init() {}
    }

    /// The network call.
    public protocol Authenticator: Sendable {
        /// A session token for `user`, or an error.
        func signIn(user: String, password: String) async throws -> String
    }

    /// Attempts before the account is locked out.
    public static let maximumAttempts = 3
    /// The pause before a failed attempt is retried.
    public static let retryDelay = Duration.seconds(2)

    /// The chart.
    public static func chart(authenticator: some Authenticator) throws -> TypedChart<Screen, Event> {
        try TypedChart(name: "login") {
            StateNode(.form) {
                On(.submit, to: .signingIn) { ctx in
                    guard case .submit(let user, let password)? = ctx.event else { return }
                    var progress = Progress()
                    progress.user = user
                    progress.password = password
                    ctx.context = progress
                }
            }
            StateNode(.signingIn) {
                OnEntry { ctx in ctx.context.attempts += 1 }
                Invoke({ invocation in
                    try await authenticator.signIn(user: invocation.context.user, password: invocation.context.password)
                }, onDone: { .succeeded(token: $0) }, onError: { .failed(reason: "\($0)") })
                On(.succeeded, to: .signedIn) { ctx in
                    guard case .succeeded(let token)? = ctx.event else { return }
                    ctx.context.token = token
                    ctx.context.password = ""
                }
                On(.failed, to: .waitingToRetry,
                   guard: { ctx in ctx.context.attempts < maximumAttempts }) { ctx in
                    ctx.context.lastError = reason(ctx.event)
                }
                On(.failed, to: .lockedOut) { ctx in
                    ctx.context.lastError = reason(ctx.event)
                    ctx.context.password = ""
                }
                On(.cancel, to: .form)
            }
            StateNode(.waitingToRetry) {
                After(retryDelay, to: .signingIn)
                On(.cancel, to: .form)
            }
            StateNode(.signedIn) {
                On(.signOut, to: .form) { ctx in ctx.context = Progress() }
            }
            Final(.lockedOut)
        }
    }

    private static func reason(_ event: Event?) -> String? {
        if case .failed(let reason)? = event { return reason }
        return nil
    }

    /// The running machine.
    public let machine: StateMachine<Screen, Event>
    /// What the screen draws from: redrawn when the screen or the progress changes.
    public let view: ObservableStateMachine<Screen, Event>

    /// A started flow calling `authenticator`; pass a ``TestClock`` to control the retry pause.
    public init(authenticator: some Authenticator, clock: any MachineClock = SystemClock.shared) throws {
        machine = StateMachine(try Self.chart(authenticator: authenticator), clock: clock, context: Progress())
        try machine.start()
        view = ObservableStateMachine(machine)
    }

    /// The line a status label shows, read through ``view`` so an observer redraws it.
    public var status: String {
        let progress = view.context
        switch view.configuration.first {
        case .signingIn?: return "Signing in as \(progress.user) (attempt \(progress.attempts) of \(Self.maximumAttempts))"
        case .waitingToRetry?: return "\(progress.lastError ?? "Failed"); retrying"
        case .signedIn?: return "Welcome, \(progress.user)"
        case .lockedOut?: return "Locked out after \(progress.attempts) attempts"
        default: return "Please sign in"
        }
    }

    /// Submits the form.
    @discardableResult
    public func submit(user: String, password: String) throws -> SendOutcome {
        try machine.send(.submit(user: user, password: password))
    }
}
