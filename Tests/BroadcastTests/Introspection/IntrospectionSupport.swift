import Broadcast
import Foundation

// Listeners for the introspection suites. Each records its calls in a
// `CallRecord`, so tests compare what an explanation predicted with what a
// broadcast did, after the fact.

/// One call of a listener: who, on which thread, and whether it ran inside
/// the broadcast that the test was making on that thread.
struct RecordedCall: Sendable, Equatable {
    let listener: Int
    let thread: UInt
    let duringBroadcastOnThisThread: Bool
    let onMainQueue: Bool
}

/// The calls of one test, and the thread currently broadcasting (calls made on
/// it while it broadcasts are the synchronous ones).
final class CallRecord: Sendable {
    private let calls = Locked<[RecordedCall]>([])
    private let broadcastingThread = Locked<UInt?>(nil)

    func record(_ listener: Int) {
        let thread = currentThreadID()
        let during = broadcastingThread.withLock { $0 == thread }
        calls.withLock {
            $0.append(
                RecordedCall(
                    listener: listener, thread: thread, duringBroadcastOnThisThread: during,
                    onMainQueue: MainQueueTag.isOnMainQueue))
        }
    }

    /// Marks this thread as broadcasting, until `endBroadcast()`.
    func beginBroadcast() { broadcastingThread.withLock { $0 = currentThreadID() } }

    func endBroadcast() { broadcastingThread.withLock { $0 = nil } }

    /// Runs `broadcast` with this thread marked as broadcasting.
    func broadcasting<T>(_ broadcast: () -> T) -> T {
        beginBroadcast()
        defer { endBroadcast() }
        return broadcast()
    }

    func calls(of listener: Int) -> [RecordedCall] {
        calls.withLock { $0.filter { $0.listener == listener } }
    }

    /// Every call's listener, in call order.
    var order: [Int] { calls.withLock { $0.map(\.listener) } }

    func reset() { calls.withLock { $0.removeAll() } }
}

/// The diagnostics a broadcaster reported, for tests that make or check for
/// the mistakes it reports (debug builds report them).
final class DiagnosticLog: Sendable {
    private let diagnostics = Locked<[BroadcastDiagnostic]>([])

    func record(_ diagnostic: BroadcastDiagnostic) { diagnostics.withLock { $0.append(diagnostic) } }

    var all: [BroadcastDiagnostic] { diagnostics.withLock { $0 } }
}

/// A protocol no test listener broadcasts to but registrations can name.
protocol Unrelated: AnyObject { func unrelated() }

/// Conforms, no actor of its own, and is `Sendable`: wherever it registers,
/// a broadcast calls it where the broadcast runs.
final class PlainPinger: Ping, Unrelated, Sendable {
    let id: Int
    let record: CallRecord
    init(id: Int, record: CallRecord) {
        self.id = id
        self.record = record
    }
    func ping(_ n: Int) { record.record(id) }
    func unrelated() {}
}

/// Does not conform to `Ping`.
final class Stranger: Unrelated, Sendable {
    func unrelated() {}
}

/// A main-actor listener whose conformance is isolated to the main actor.
@MainActor final class IsolatedPinger {
    let id: Int
    let record: CallRecord
    init(id: Int, record: CallRecord) {
        self.id = id
        self.record = record
    }
}

extension IsolatedPinger: @MainActor Ping {
    func ping(_ n: Int) {
        MainActor.assertIsolated()
        record.record(id)
    }
}

/// A main-actor listener whose conformance is not isolated.
@MainActor final class MainPinger {
    nonisolated let id: Int
    nonisolated let record: CallRecord
    init(id: Int, record: CallRecord) {
        self.id = id
        self.record = record
    }
}

extension MainPinger: Ping {
    nonisolated func ping(_ n: Int) { record.record(id) }
}

/// A main-actor object that does not conform.
@MainActor final class MainStranger {}

/// A class with no actor whose conformance is isolated to the main actor: it
/// is a `Ping` only on the main actor.
final class MainConformer: Sendable {
    let id: Int
    let record: CallRecord
    init(id: Int, record: CallRecord) {
        self.id = id
        self.record = record
    }
}

extension MainConformer: @MainActor Ping {
    func ping(_ n: Int) {
        MainActor.assertIsolated()
        record.record(id)
    }
}

/// An actor that registers listeners from its own code, and runs code there.
actor Registrar {
    /// Registers `listener` from this actor's code: it is called only here.
    func add(_ listener: PlainPinger, to broadcaster: Broadcaster) {
        broadcaster.addListener(listener)
    }

    /// Starts `registration` from this actor's code.
    func start(_ registration: ListenerRegistration) {
        registration.start()
    }

    func run<T: Sendable>(_ body: @Sendable (isolated Registrar) -> T) -> T {
        body(self)
    }
}

/// Runs `body` on a new thread: no actor, no task, not the main queue.
func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Runs `body` in a plain `DispatchQueue.main.async` block: the main queue,
/// outside any task.
func onMainQueueBlock<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume(returning: body()) }
    }
}
