import CCallbackFrame
import CStateCore

/// The `sc_host.context` of a Swift machine: what its guard and action callbacks read, in the
/// machine's block (`MachineRuntime.init`), written before the core can call back and never
/// again. Only Swift reads it: to C it is the opaque `void *context` the core passes through.
struct CallbackHost {
    /// The runtime (unretained: it owns the block): the machine the callbacks' frames name.
    let runtime: UnsafeMutableRawPointer
    /// The chart's guards and action lists by id (``CallbackTable/entries``).
    let guards: UnsafePointer<Unmanaged<GuardBox>>
    let actions: UnsafePointer<Unmanaged<ActionBox>>
    /// The configuration bits (``MachineRuntime/configuration``), which every context carries.
    let configuration: UnsafePointer<UInt64>

    /// Runs `body` in a new callback frame of the runtime (`callback_frame.h`), passing the
    /// frame's serial, and puts back the frame it replaced when `body` returns: a context made
    /// for `body` is live exactly while `body` runs.
    @inline(__always)
    func inFrame<T>(_ body: (UInt64) -> T) -> T {
        let replacedMachine = callback_frame_current_machine()
        let replacedSerial = callback_frame_serial()
        let serial = callback_frame_begin(runtime)
        defer { callback_frame_restore(replacedMachine, replacedSerial) }
        return body(serial)
    }
}

extension MachineRuntime {
    /// The core's C signature of `sc_host.guard` and `sc_host.action`.
    typealias GuardCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, sc_id, UnsafePointer<sc_event>?) -> Bool
    typealias ActionCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, sc_id, UnsafePointer<sc_event>?) -> Void

    /// `sc_host.guard`: guard `id`'s closure, in a callback frame of its own, with a context
    /// carrying the event (nil for none), the box's argument and the configuration.
    static let runGuard: GuardCallback = { context, _, id, event in
        let host = context.unsafelyUnwrapped.assumingMemoryBound(to: CallbackHost.self)
        return host.pointee.guards[Int(id)]._withUnsafeGuaranteedRef { box in
            host.pointee.inFrame { serial in
                box.test(ActionContext(serial: serial, eventAddress: event, argument: box.argument.address,
                                       configuration: host.pointee.configuration))
            }
        }
    }

    /// `sc_host.action`: action list `id` (one box, ``ActionBox/sequence(_:)``), in one
    /// callback frame, as ``runGuard``.
    static let runActions: ActionCallback = { context, _, id, event in
        let host = context.unsafelyUnwrapped.assumingMemoryBound(to: CallbackHost.self)
        host.pointee.actions[Int(id)]._withUnsafeGuaranteedRef { box in
            host.pointee.inFrame { serial in
                box.run(ActionContext(serial: serial, eventAddress: event, argument: box.argument.address,
                                      configuration: host.pointee.configuration))
            }
        }
    }
}
