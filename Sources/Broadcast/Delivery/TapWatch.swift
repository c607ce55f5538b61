import Synchronization

/// A broadcaster's tap, in the class its set-once slot
/// (`AtomicLazyReference`) holds.
final class TapBox: Sendable {
    let tap: any BroadcastTap

    init(_ tap: any BroadcastTap) {
        self.tap = tap
    }
}

/// One delivery watched by its broadcaster's tap, started before the
/// delivery reads its members and shown to the tap once it has done its
/// synchronous part (``Broadcaster/watch(_:of:sticky:)``).
///
/// Made only when a tap is set: a broadcaster with none enters no code of
/// this file. A class: a delivery holds an optional reference, a pointer
/// compared with nil, where an optional struct holding existentials was
/// copied and destroyed through its value witnesses (about 330
/// instructions per delivery, measured by `scripts/check-instructions`).
final class TapWatch {
    private let tap: any BroadcastTap
    private let broadcaster: ObjectIdentifier
    private let kind: BroadcastObservation.Kind
    private let subject: any Any.Type
    private let isSticky: Bool
    private let ranOnMainThread: Bool
    private let start: ContinuousClock.Instant

    /// The broadcaster whose tap is running here, in this task and the tasks
    /// it starts (or on this thread, outside any task).
    ///
    /// Task-local, not per thread: a task the tap starts inherits it, so a
    /// tap cannot feed itself through a `Task` either; and reading it costs a
    /// few nanoseconds, where a thread's dictionary costs about a microsecond.
    @TaskLocal private static var observing: ObjectIdentifier?

    /// A watch of a delivery starting now; nil inside `broadcaster`'s tap,
    /// whose broadcasts and posts are delivered but not observed.
    @inline(never)
    static func started(
        by broadcaster: Broadcaster, _ kind: BroadcastObservation.Kind, of subject: any Any.Type, sticky: Bool
    ) -> TapWatch? {
        let id = ObjectIdentifier(broadcaster)
        guard let tap = broadcaster.tapSlot.load(), observing != id else { return nil }
        return TapWatch(
            tap: tap.tap, broadcaster: id, kind: kind, subject: subject, isSticky: sticky,
            ranOnMainThread: MainThread.isCurrent, start: .now)
    }

    private init(
        tap: any BroadcastTap, broadcaster: ObjectIdentifier, kind: BroadcastObservation.Kind,
        subject: any Any.Type, isSticky: Bool, ranOnMainThread: Bool, start: ContinuousClock.Instant
    ) {
        self.tap = tap
        self.broadcaster = broadcaster
        self.kind = kind
        self.subject = subject
        self.isSticky = isSticky
        self.ranOnMainThread = ranOnMainThread
        self.start = start
    }

    /// Shows a synchronous delivery to the tap, once its leftovers are
    /// carried out (``Broadcaster/finish(_:as:onMainActor:sticky:_:)``).
    @inline(never)
    func observe(_ run: DeliveryRun) {
        let scheduled = run.leftovers.map { $0.batches.reduce(0) { $0 + $1.entries.count } - $0.unsettled.count } ?? 0
        observe(called: run.count - scheduled, scheduled: scheduled)
    }

    /// Shows a delivery to the tap, with no lock held, on the thread that
    /// made it; a broadcast or post the tap makes on the same broadcaster is
    /// not observed.
    @inline(never)
    func observe(called: Int, scheduled: Int = 0) {
        let duration = start.duration(to: .now)
        let observation = BroadcastObservation(
            kind: kind, subject: subject, ranOnMainThread: ranOnMainThread, calledCount: called,
            scheduledCount: scheduled, duration: duration, isSticky: isSticky)
        Self.$observing.withValue(broadcaster) { tap.observe(observation) }
    }
}

/// The names of the types broadcasts and posts were made to, made once per
/// type: `String(reflecting:)` of a generic type costs microseconds.
enum SubjectNames {
    private static let names = Mutex<[ObjectIdentifier: String]>([:])

    static func name(of subject: any Any.Type) -> String {
        let id = ObjectIdentifier(subject)
        if let name = names.withLock({ $0[id] }) { return name }
        let name = String(reflecting: subject)
        names.withLock { $0[id] = name }
        return name
    }
}
