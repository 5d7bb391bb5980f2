import CCallbackFrame
import CStateCore

/// Executable content: runs during a microstep with the machine's lock held.
///
/// Actions must not block on the machine from another thread; to trigger more work they
/// ``ActionContext/raise(_:)`` or ``ActionContext/send(_:)`` events, which are queued.
public typealias Action = @Sendable (ActionContext) -> Void

/// A transition's condition. Evaluated during transition selection, in document order.
public typealias Guard = @Sendable (ActionContext) -> Bool

/// Computes the payload of the `done.state.<parent>` event raised when a final state is entered.
public typealias DoneData = @Sendable (ActionContext) -> (any Sendable)?

/// Something a state starts when the macrostep that entered it completes, and cancels when the
/// state is exited (SCXML `<invoke>`).
///
/// ```swift
/// let poller = Invocation(id: "poller",
///                         start: { ctx in
///                             let machine = ctx.machine       // not ctx: it is only valid here
///                             timer.start { _ = try? machine?.send("tick") }
///                         },
///                         cancel: { _ in timer.stop() })
/// ```
public struct Invocation: Sendable {
    /// The invocation's id (SCXML `<invoke id>`).
    public var id: String
    /// Starts the invocation.
    public var start: Action
    /// Cancels it.
    public var cancel: Action

    /// An invocation started by `start` and cancelled by `cancel`.
    public init(id: String, start: @escaping Action, cancel: @escaping Action = { _ in }) {
        self.id = id
        self.start = start
        self.cancel = cancel
    }
}

/// An event: a dot-separated name and an optional payload.
///
/// ```swift
/// try machine.send(Event("order.placed", payload: Order(id: 7)))
/// ```
public struct Event: Sendable, CustomStringConvertible {
    /// The dot-separated name descriptors match.
    public var name: String
    /// The data the event carries, if any.
    public var payload: (any Sendable)?

    /// An event named `name` carrying `payload`.
    public init(_ name: String, payload: (any Sendable)? = nil) {
        self.name = name
        self.payload = payload
    }

    /// The payload cast to `T`, or `nil`.
    public func payload<T>(as type: T.Type) -> T? { payload as? T }

    /// The event's name.
    public var description: String { name }
}

extension Event: ExpressibleByStringLiteral {
    /// An event without payload named by a string literal: `try machine.send("coin")`.
    public init(stringLiteral value: String) { self.init(value) }
}

/// What executable content and guards can see and do while a machine runs them. A context is
/// valid only while its action or guard runs, on the thread that runs it: to reach the machine
/// later, or from another thread, read ``machine`` while the callback runs, keep it and send to
/// it. A context used after its callback has returned (in a later callback too, or from another
/// thread) stops the program with a message saying so; it never touches a machine it no longer
/// stands for, even one that has been deallocated.
///
/// ```swift
/// StateDefinition("saving", onEntry: [{ ctx in
///     if ctx.isActive("online") { ctx.raise("upload") } else { ctx.send("retry") }
/// }])
/// ```
public struct ActionContext {
    // No reference to the runtime: the serial of the callback frame the context was made in
    // (`callback_frame.h`, a thread-local of the calling thread), which also holds the
    // runtime's address while the callback runs. The check reads only the thread-local, so a
    // context kept past its callback is refused even once its runtime is gone, and a context
    // costs no reference counting.
    @usableFromInline let serial: UInt64
    /// Where the core (or the runtime) keeps the event while the callback runs, nil for none;
    /// read only once the context is known to be live (``coreEvent``).
    @usableFromInline let eventAddress: UnsafePointer<sc_event>?
    /// The argument of the callback's box (``ActionBox/argument``), unretained (the box keeps
    /// it): a typed chart's maps' callback block (`TypedChartMaps.callbackArgument`), an SCXML
    /// session; nil for other callbacks. Read only once the context is known to be live.
    @usableFromInline package let argument: UnsafeRawPointer?
    /// The machine's configuration bits (`MachineRuntime.configuration`), so that a guard's
    /// state test reads its bit's word without going through the runtime. Read only once the
    /// context is known to be live (the machine is then running its callback).
    @usableFromInline let configuration: UnsafePointer<UInt64>?

    /// A context for the callback running now on this thread, in the frame
    /// `MachineRuntime.withCallbackFrame` opened for it, for the event at `event` (none: nil),
    /// which must stay there while the callback runs.
    init(event: UnsafePointer<sc_event>? = nil, argument: UnsafeRawPointer? = nil) {
        self.serial = callback_frame_serial()
        self.eventAddress = event
        self.argument = argument
        self.configuration = callback_frame_current_machine().map {
            Unmanaged<MachineRuntime>.fromOpaque($0)._withUnsafeGuaranteedRef { $0.configuration }
        }
    }

    /// The core's view of the event (interned id and payload slot), so typed layers can map it
    /// back to their own event type without string work. `id` is `SC_NONE` when there is no
    /// event. The program stops unless the context is live.
    @inlinable
    var coreEvent: sc_event {
        checkLive()
        return eventAddress?.pointee ?? sc_event(id: SC_NONE, flags: 0, data: 0)
    }

    /// This context, for a callback whose contexts carry `argument` (its box's).
    @inlinable @inline(__always)
    func carrying(argument: UnsafeRawPointer?) -> ActionContext {
        ActionContext(serial: serial, eventAddress: eventAddress, argument: argument, configuration: configuration)
    }

    /// A context for the callback running in the frame with `serial` (see
    /// `MachineRuntime+GuardsAndActions.swift`).
    @inlinable @inline(__always)
    init(serial: UInt64, eventAddress: UnsafePointer<sc_event>?, argument: UnsafeRawPointer?,
         configuration: UnsafePointer<UInt64>?) {
        self.serial = serial
        self.eventAddress = eventAddress
        self.argument = argument
        self.configuration = configuration
    }

    /// The address of the runtime running this context's callback, which is the one running on
    /// this thread; the program stops otherwise.
    @inlinable @inline(__always)
    var liveRuntimeAddress: UnsafeMutableRawPointer {
        guard let address = callback_frame_machine(serial) else { ActionContext.usedOutsideItsCallback() }
        return address
    }

    /// Stops the program unless this context's callback is the one running on this thread.
    @inlinable @inline(__always)
    func checkLive() { _ = liveRuntimeAddress }

    @usableFromInline
    static func usedOutsideItsCallback() -> Never {
        fatalError("ActionContext used after its action or guard returned, or from another thread: read ctx.machine inside the callback, keep it and send to it instead")
    }

    /// The runtime, once it is certain that this context is live (its callback is running on
    /// this thread, so the runtime is alive: its machine is running it).
    var checked: MachineRuntime {
        @inline(__always) get { Unmanaged<MachineRuntime>.fromOpaque(liveRuntimeAddress).takeUnretainedValue() }
    }

    /// The event that triggered the current microstep; `nil` for eventless transitions and the
    /// initial entry.
    public var event: Event? { checked.swiftEvent(coreEvent) }

    /// Appends `event` to the internal queue: processed within the current macrostep, after
    /// the current microstep (SCXML `<raise>`).
    public func raise(_ event: Event) { checked.raiseFromAction(event) }

    /// Appends `event` to the external queue: processed after the current macrostep completes
    /// (SCXML `<send>` to the machine itself).
    public func send(_ event: Event) { checked.postFromAction(event) }

    /// Whether the state `id` is in the current configuration (SCXML `In(id)`).
    public func isActive(_ id: String) -> Bool { checked.isActive(id) }

    /// The machine running this action (`nil` once it is being deallocated). Read it while the
    /// callback runs, like the rest of the context; the ``Machine`` it returns stays valid
    /// anywhere, after the callback has returned and from any thread.
    ///
    /// ```swift
    /// Invocation(id: "poller", start: { ctx in
    ///     let machine = ctx.machine
    ///     timer.start { _ = try? machine?.send("tick") }
    /// })
    /// ```
    /// For a ``LocalStateMachine`` this hands its machine out: from then on its sends take the
    /// lock, since another thread may send to it.
    public var machine: Machine? {
        let runtime = checked
        runtime.shareConfinedMachine()
        return runtime.owner
    }
}
