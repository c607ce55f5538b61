import Broadcast
import Foundation
import Synchronization

// Shared spies for the semantic suite. Every spy records what it received in
// an `EventLog` (a lock around an array), so tests assert on the log after
// the fact — never only inside a callback, where a missing delivery would pass
// silently.

/// An append-only, thread-safe record of events, in the order they happened.
final class EventLog: Sendable {
    private let events = Locked<[String]>([])

    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var all: [String] { events.withLock { $0 } }

    var count: Int { events.withLock { $0.count } }

    func count(of event: String) -> Int {
        events.withLock { $0.count { $0 == event } }
    }
}

/// The protocol most tests broadcast to.
protocol Ping: AnyObject {
    func ping(_ n: Int)
}

/// A plain (non-isolated) listener: records `"<name>:<n>"`, then runs its
/// optional action (used by the re-entrancy and thread tests).
final class PingSpy: Ping, Sendable {
    let name: String
    let log: EventLog
    private let action: (@Sendable (Int) -> Void)?

    init(_ name: String, log: EventLog, onPing action: (@Sendable (Int) -> Void)? = nil) {
        self.name = name
        self.log = log
        self.action = action
    }

    func ping(_ n: Int) {
        log.record("\(name):\(n)")
        action?(n)
    }
}

/// A thread-safe counter of calls, for listeners whose log would be too big.
final class CallCounter: Sendable {
    private let value = Atomic<Int>(0)

    func increment() { value.add(1, ordering: .relaxed) }

    var count: Int { value.load(ordering: .relaxed) }
}

/// A listener that only counts its calls.
final class CountingPing: Ping, Sendable {
    let calls = CallCounter()
    func ping(_ n: Int) { calls.increment() }
}

/// A listener that is not `Sendable`, so it registers with the actor that
/// calls it named (`calledOn:`); it forwards each call to `target`.
final class ActorBoundPing: Ping {
    let target: any Ping & Sendable
    init(forwardingTo target: any Ping & Sendable) { self.target = target }
    func ping(_ n: Int) { target.ping(n) }
}

/// A holder whose content can be dropped from another closure, to release a
/// listener in the middle of a broadcast.
final class Holder<Value: AnyObject & Sendable>: Sendable {
    private let content: Locked<Value?>

    init(_ value: Value) { content = Locked(value) }

    var value: Value? { content.withLock { $0 } }

    func release() { content.withLock { $0 = nil } }
}

extension Broadcaster {
    /// Broadcasts `n` to every `Ping` listener.
    @discardableResult
    func ping(_ n: Int) -> Int {
        broadcast(to: Ping.self) { $0.ping(n) }
    }
}

/// The calling thread's identity, comparable across threads.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}

/// A tag on the main queue, read back to tell whether code runs there
/// (`Thread.isMainThread` is not reliable inside main-actor code on Linux).
enum MainQueueTag {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: key) != nil }
}
