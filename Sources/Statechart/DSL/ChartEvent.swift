/// The requirement on a typed chart's events: a `Hashable`, `Sendable` value with a *name*
/// that transitions match, payload excluded.
///
/// Enums without associated values conform with no code: the event is its own name.
///
/// ```swift
/// enum TurnstileEvent: ChartEvent { case coin, push }
/// ```
///
/// Events that carry payloads name their cases with a payload-free `Name` type, so a
/// transition matches every `seek`, whatever its position:
///
/// ```swift
/// enum PlayerEvent: ChartEvent {
///     case play, pause, seek(to: Double)
///
///     enum Name { case play, pause, seek }
///     var name: Name {
///         switch self {
///         case .play: .play
///         case .pause: .pause
///         case .seek: .seek
///         }
///     }
/// }
/// // On(.seek) { ctx in if case .seek(let position)? = ctx.event { player.seek(position) } }
/// ```
///
/// In the compiled chart a name becomes the string `String(describing: name)` (give `Name`
/// a `CustomStringConvertible` conformance to choose it; whitespace and `*`, which SCXML
/// descriptors reserve, become `_`). Names may be dot-separated, and
/// then SCXML's prefix matching applies: a transition on `error` also handles
/// `error.network`. `String` conforms, so charts can also use string-named events with
/// `*` and `prefix.*` descriptors.
public protocol ChartEvent: Hashable, Sendable {
    /// The payload-free name type; `Self` for events without payloads.
    associatedtype Name: Hashable & Sendable = Self

    /// The context of the charts these events drive: the value of your own type that their
    /// guards read and actions update (``StateMachine/Context/context``), ``NoContext`` unless
    /// the event type names one. Declared once, here, the compiler checks every use.
    ///
    /// ```swift
    /// struct Tally: Sendable, Codable { var attempts = 0 }
    /// enum DoorEvent: ChartEvent {
    ///     case knock
    ///     typealias Context = Tally
    /// }
    /// ```
    associatedtype Context: Sendable = NoContext

    /// The name transitions match: the event without its payload.
    var name: Name { get }
}

extension ChartEvent where Name == Self {
    /// An event without payload is its own name.
    public var name: Self { self }
}

/// String-named events: the string is the SCXML event name, and in transitions a descriptor
/// (`"error"` matches `"error.network"`; `"error.*"` and `"*"` are accepted too).
///
/// ```swift
/// let chart = try TypedChart<Light, String> {
///     StateNode(.on) { On("error.*", to: .off) }
///     StateNode(.off)
/// }
/// ```
extension String: ChartEvent {}

/// The context of charts whose events declare none (``ChartEvent/Context``): no value, and no
/// storage or work in their machines.
public struct NoContext: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The one value.
    public init() {}
    public var description: String { "NoContext()" }
}
