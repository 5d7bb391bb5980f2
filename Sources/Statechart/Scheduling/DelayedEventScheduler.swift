import Synchronization

/// The delayed events of one machine, in deadline order, and the wake-ups that deliver them.
///
/// Invariants:
/// - `pending` is sorted by (deadline, sequence): events due at the same time are delivered
///   in the order they were sent;
/// - `wakeUps` lists the deadlines of wake-ups requested from the clock and not fired yet; a
///   new one is requested only for a deadline earlier than all of them, so a machine that keeps
///   rescheduling a timeout has at most a couple outstanding;
/// - at most one thread delivers at a time (`delivering`), so delivery order is preserved even
///   when wake-ups fire concurrently on a real clock;
/// - an event taken from `pending` for delivery stays in `inFlight` until the machine, holding
///   its lock, processes it: a snapshot (taken under the same lock) sees every event exactly
///   once, and a cancel that returns before the event is processed stops it.
///
/// The scheduler's lock is a leaf with respect to the machine: events are delivered (sent to
/// the machine) with it released, so an action may schedule or cancel freely.
final class DelayedEventScheduler: Sendable {
    struct Entry: Sendable {
        let id: String
        let deadline: Duration
        let sequence: UInt64
        let event: Event
        let typed: (any Sendable)?
    }

    private struct State {
        var pending: [Entry] = []
        var inFlight: [Entry] = []
        var wakeUps: [Duration] = []
        var sequence: UInt64 = 0
        var generatedIDs = 0
        var delivering = false
        /// The machine has halted: new events are dropped until a restore reopens it.
        var closed = false
    }

    let clock: any MachineClock
    private let state = Mutex(State())
    private let owner = Mutex<WeakMachine>(WeakMachine())

    private struct WeakMachine {
        weak var machine: Machine?
    }

    init(clock: any MachineClock) {
        self.clock = clock
    }

    /// The machine events are delivered to (held weakly).
    var machine: Machine? {
        get { owner.withLock { $0.machine } }
        set { owner.withLock { $0.machine = newValue } }
    }

    /// Schedules `event` for delivery `delay` from now; returns its send id (`id`, or a
    /// generated `"send.N"`).
    func schedule(_ event: Event, typed: (any Sendable)?, after delay: Duration, id: String?) -> String {
        let deadline = clock.now + max(delay, .zero)
        let (sendID, wake) = state.withLock { state -> (String, Duration?) in
            let sendID: String
            if let id {
                sendID = id
            } else {
                state.generatedIDs += 1
                sendID = "send.\(state.generatedIDs)"
            }
            if state.closed { return (sendID, nil) }
            state.sequence += 1
            let entry = Entry(id: sendID, deadline: deadline, sequence: state.sequence, event: event, typed: typed)
            let position = state.pending.partitioningIndex { $0.deadline > deadline }
            state.pending.insert(entry, at: position)
            return (sendID, Self.wakeUpNeeded(&state))
        }
        if let wake { requestWakeUp(at: wake) }
        return sendID
    }

    /// The deadline of a wake-up to request: the earliest pending deadline when no outstanding
    /// wake-up comes at or before it.
    private static func wakeUpNeeded(_ state: inout State) -> Duration? {
        guard let first = state.pending.first?.deadline else { return nil }
        if let earliest = state.wakeUps.min(), earliest <= first { return nil }
        state.wakeUps.append(first)
        return first
    }

    private func requestWakeUp(at deadline: Duration) {
        clock.wakeUp(at: deadline) { [weak self] in self?.fire(armedAt: deadline) }
    }

    /// Cancels every pending event sent with `id`; returns whether there was one.
    @discardableResult
    func cancel(id: String) -> Bool {
        state.withLock { state in
            let before = state.pending.count + state.inFlight.count
            state.pending.removeAll { $0.id == id }
            state.inFlight.removeAll { $0.id == id }
            return state.pending.count + state.inFlight.count != before
        }
    }

    /// Cancels every pending event.
    func cancelAll() {
        state.withLock { state in
            state.pending.removeAll()
            state.inFlight.removeAll()
        }
    }

    /// Cancels every pending event and drops those scheduled from now on: the machine halted,
    /// was stopped or is being deallocated. Needs no machine lock, so scheduling on another
    /// machine from an action never waits for that machine.
    func close() {
        state.withLock { state in
            state.closed = true
            state.pending.removeAll()
            state.inFlight.removeAll()
        }
    }

    /// Accepts events again (a restored machine that is running).
    func reopen() {
        state.withLock { $0.closed = false }
    }

    /// The events not processed yet in delivery order (those being delivered first), with the
    /// time left before each is due.
    func pendingEvents() -> [(entry: Entry, remaining: Duration)] {
        let now = clock.now
        return state.withLock { state in
            (state.inFlight + state.pending).map { ($0, max($0.deadline - now, .zero)) }
        }
    }

    /// Called by the machine, holding its lock, just before it processes a delivered event:
    /// whether the event is still wanted (it was not cancelled meanwhile).
    func beginProcessing(_ entry: Entry) -> Bool {
        state.withLock { state in
            guard let i = state.inFlight.firstIndex(where: { $0.sequence == entry.sequence }) else { return false }
            state.inFlight.remove(at: i)
            return true
        }
    }

    /// A wake-up fired: deliver everything due, batch by batch, until nothing is due.
    private func fire(armedAt deadline: Duration) {
        let proceed = state.withLock { state -> Bool in
            if let i = state.wakeUps.firstIndex(of: deadline) { state.wakeUps.remove(at: i) }
            if state.delivering { return false }    // the delivering thread will see what is due
            state.delivering = true
            return true
        }
        guard proceed else { return }
        while true {
            let now = clock.now
            let (batch, wake) = state.withLock { state -> ([Entry], Duration?) in
                let due = state.pending.prefix { $0.deadline <= now }
                if due.isEmpty {
                    state.delivering = false
                    return ([], Self.wakeUpNeeded(&state))
                }
                let batch = Array(due)
                state.pending.removeFirst(batch.count)
                state.inFlight += batch
                return (batch, nil)
            }
            if batch.isEmpty {
                if let wake { requestWakeUp(at: wake) }
                return
            }
            guard let machine else {
                cancelAll()
                continue
            }
            for entry in batch { machine.deliverDelayed(entry) }
        }
    }
}

fileprivate extension Array {
    /// The index of the first element satisfying `belongsInSecondPartition`, for an array
    /// partitioned by it (binary search).
    func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
