import Broadcast
import Dispatch
import Testing

/// `calledOn:` keeps a listener or handler on the actor it names.
///
/// The main actor or an instance, `Sendable` listener or not: registered
/// without it, a `Sendable` listener is called where the broadcast runs;
/// with it, only on its actor.
@Suite("calledOn: a listener stays on the actor it names", .timeLimit(.minutes(1)))
struct CalledOnTests {
    @Test func aSendableListenerCalledOnAWorkerIsScheduledThereFromAnotherThread() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let listener = PlaceRecordingPing(worker: worker)
        await worker.register(listener, with: broadcaster)
        let calledBeforeReturning = await onNewThread {
            broadcaster.ping(1)
            return listener.places.all.count
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(calledBeforeReturning == 0)
        #expect(listener.places.all == ["1@worker"])
    }

    @Test func aBroadcastMadeOnTheWorkerCallsItThereAtOnce() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let listener = PlaceRecordingPing(worker: worker)
        await worker.register(listener, with: broadcaster)
        let calledBeforeReturning = await worker.broadcastPing(2, with: broadcaster) { listener.places.all.count }
        #expect(calledBeforeReturning == 1)
        #expect(listener.places.all == ["2@worker"])
    }

    @Test func withoutCalledOnTheSameListenerIsCalledWhereTheBroadcastRuns() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let listener = PlaceRecordingPing(worker: worker)
        await worker.registerWithoutNamingItself(listener, with: broadcaster)
        let calledBeforeReturning = await onNewThread {
            broadcaster.ping(3)
            return listener.places.all.count
        }
        #expect(calledBeforeReturning == 1)
        #expect(listener.places.all == ["3@elsewhere"])
    }

    @Test func aStickyReplayToAListenerCalledOnAWorkerRunsThere() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let listener = PlaceRecordingPing(worker: worker)
        broadcaster.broadcast(to: Ping.self, sticky: true) { $0.ping(4) }
        broadcaster.addListener(listener, calledOn: worker, receivingSticky: true)
        await broadcaster.waitForScheduledDeliveries()
        #expect(listener.places.all == ["4@worker"])
    }

    @Test func aSendableListenerIsHandedToItsActorFromCodeIsolatedToNoActor() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let listener = PlaceRecordingPing(worker: worker)
        let calledBeforeReturning = await onNewThread {
            // Synchronous, no `await`: a Sendable listener may be handed over.
            broadcaster.addListener(listener, calledOn: worker)
            let registrations = ListenerRegistrations(broadcaster: broadcaster)
            registrations.add(listener, for: Ping.self, calledOn: worker)  // the same object: one call per broadcast
            broadcaster.ping(7)
            withExtendedLifetime(registrations) {}
            return listener.places.all.count
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(calledBeforeReturning == 0)
        #expect(listener.places.all == ["7@worker"])
    }

    @Test func aListenerThatIsNotSendableRegisteredByAwaitingItsActorIsReplayedThere() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let places = EventLog()
        broadcaster.broadcast(to: Ping.self, sticky: true) { $0.ping(8) }
        await worker.registerPlain(recordingIn: places, with: broadcaster)
        broadcaster.ping(9)
        await broadcaster.waitForScheduledDeliveries()
        #expect(places.all == ["8@worker", "9@worker"])
    }

    @Test func aHandlerCalledOnAWorkerRunsThere() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let places = EventLog()
        let token = await worker.addHandler(with: broadcaster) { number in
            places.record("\(number)@\(QueueActor.isRunningOnAWorker ? "worker" : "elsewhere")")
        }
        let made = await onNewThread { broadcaster.post(5) }
        await broadcaster.waitForScheduledDeliveries()
        #expect(made == 1)
        #expect(places.all == ["5@worker"])
        withExtendedLifetime(token) {}
    }

    @Test func aRegistrationCalledOnAWorkerStartedElsewhereCallsItThere() async {
        let broadcaster = Broadcaster()
        let worker = QueueActor()
        let listener = PlaceRecordingPing(worker: worker)
        let registration = await worker.declare(listener, with: broadcaster)
        await onNewThread { registration.start() }
        await onNewThread { _ = broadcaster.ping(6) }
        await broadcaster.waitForScheduledDeliveries()
        #expect(listener.places.all == ["6@worker"])
    }
}

/// An actor whose jobs run on a queue of its own, tagged so that a listener
/// can tell whether it runs there.
actor QueueActor {
    private let executor = TaggedQueueExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Whether the calling code runs on some `QueueActor`'s queue.
    nonisolated static var isRunningOnAWorker: Bool {
        DispatchQueue.getSpecific(key: TaggedQueueExecutor.key.key) != nil
    }

    func register(_ listener: PlaceRecordingPing, with broadcaster: Broadcaster) {
        broadcaster.addListener(listener, calledOn: self)
    }

    /// Registers a listener that is not `Sendable`, which only this actor's
    /// code may hand over; the actor keeps it.
    func registerPlain(recordingIn places: EventLog, with broadcaster: Broadcaster) {
        let listener = ActorBoundPing(forwardingTo: PlaceLoggingPing(places))
        plain.append(listener)
        broadcaster.addListener(listener, calledOn: self, receivingSticky: true)
    }

    private var plain: [ActorBoundPing] = []

    func registerWithoutNamingItself(_ listener: PlaceRecordingPing, with broadcaster: Broadcaster) {
        broadcaster.addListener(listener)
    }

    func declare(_ listener: PlaceRecordingPing, with broadcaster: Broadcaster) -> ListenerRegistration {
        ListenerRegistration(listener, for: Ping.self, calledOn: self, on: broadcaster)
    }

    func addHandler(with broadcaster: Broadcaster, _ handler: @escaping @Sendable (Int) -> Void) -> BroadcastToken {
        broadcaster.addHandler(for: Int.self, calledOn: self, handler: handler)
    }

    /// Broadcasts from this actor's code, which passes this actor as the
    /// broadcast's isolation. (A typed method declared `nonisolated` without
    /// an `isolation:` parameter would pass none, and the call would be
    /// scheduled here instead of made at once.)
    func broadcastPing(_ n: Int, with broadcaster: Broadcaster, then read: @Sendable () -> Int) -> Int {
        broadcaster.broadcast(to: Ping.self) { $0.ping(n) }
        return read()
    }
}

/// The executor of a ``QueueActor``: a serial queue with a specific value set.
final class TaggedQueueExecutor: SerialExecutor, Sendable {
    /// The queue-specific key, in a box because not every Dispatch overlay
    /// declares `DispatchSpecificKey` Sendable.
    final class Key: @unchecked Sendable {
        // @unchecked Sendable: `key` is immutable and only passed to
        // Dispatch's thread-safe `setSpecific` and `getSpecific`.
        let key = DispatchSpecificKey<UInt8>()
    }

    static let key = Key()
    private let queue: DispatchQueue

    init() {
        queue = DispatchQueue(label: "QueueActor")
        queue.setSpecific(key: Self.key.key, value: 1)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

/// Records where each call runs into a shared log.
final class PlaceLoggingPing: Ping, Sendable {
    let places: EventLog
    init(_ places: EventLog) { self.places = places }
    func ping(_ n: Int) { places.record("\(n)@\(QueueActor.isRunningOnAWorker ? "worker" : "elsewhere")") }
}

/// A `Sendable` listener that records where each call runs: on a
/// ``QueueActor`` or elsewhere.
final class PlaceRecordingPing: Ping, Sendable {
    let places = EventLog()
    let worker: QueueActor

    init(worker: QueueActor) { self.worker = worker }

    func ping(_ n: Int) {
        places.record("\(n)@\(QueueActor.isRunningOnAWorker ? "worker" : "elsewhere")")
    }
}
