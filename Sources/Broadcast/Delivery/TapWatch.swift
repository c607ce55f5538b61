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
/// this file.
struct TapWatch {
    private let tap: any BroadcastTap
    private let broadcaster: ObjectIdentifier
    private let kind: BroadcastObservation.Kind
    private let subject: any Any.Type
    private let isSticky: Bool
    private let ranOnMainThread: Bool
    private let start: ContinuousClock.Instant

    /// The broadcasters whose tap is running on this thread.
    ///
    /// Per thread, not task-local: a task the tap starts is not inside it, and its
    /// broadcasts are observed.
    private static let observing = ThreadStack<ObjectIdentifier>(key: "Broadcast.TapWatch.observing")

    /// A watch of a delivery starting now; nil inside `broadcaster`'s tap,
    /// whose broadcasts and posts are delivered but not observed.
    @inline(never)
    static func started(
        by broadcaster: Broadcaster, tap: TapBox, _ kind: BroadcastObservation.Kind, of subject: any Any.Type,
        sticky: Bool
    ) -> TapWatch? {
        let id = ObjectIdentifier(broadcaster)
        guard !observing.current.contains(id) else { return nil }
        return TapWatch(
            tap: tap.tap, broadcaster: id, kind: kind, subject: subject, isSticky: sticky,
            ranOnMainThread: MainThread.isCurrent, start: .now)
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
        Self.observing.with(broadcaster) { tap.observe(observation) }
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
