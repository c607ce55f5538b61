import Broadcast
import Dispatch
import Foundation

// Listeners and logs for the compatibility suites. This target compiles the
// 0.1.0 spellings on purpose: each use of one is a deprecation warning, kept
// a warning (not an error) by the target's settings in Package.swift, and
// `scripts/check-deprecations` fails unless each one is still reported.

/// A protocol with one synchronous requirement.
protocol Greeting: AnyObject {
    func greet(_ name: String)
}

/// A value posted as an event.
struct SignedIn: Sendable, Equatable {
    let name: String
}

/// What listeners received, in order.
final class CallLog: Sendable {
    private let entries = Locked<[String]>([])

    func record(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}

/// A value behind an `NSLock`: a pthread mutex, which ThreadSanitizer sees
/// (the sanitizer run includes this target).
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`,
    // while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A non-isolated listener of greetings and of `SignedIn` values.
final class GreetingSpy: Greeting, EventListener, Sendable {
    let name: String
    let log: CallLog

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    func greet(_ who: String) { log.record("\(name):\(who)") }

    func receive(_ event: SignedIn) { log.record("\(name):signedIn(\(event.name))") }
}

/// A main-actor screen whose conformance is isolated to the main actor,
/// registered from its main-actor initializer.
@MainActor final class GreetingScreen {
    let log: CallLog

    init(broadcaster: Broadcaster, log: CallLog) {
        self.log = log
        broadcaster.addListener(self)
    }
}

extension GreetingScreen: @MainActor Greeting {
    func greet(_ who: String) {
        MainActor.assertIsolated()
        log.record("screen:\(who)")
    }
}

/// A main-actor object that listens to nothing: a synchronous broadcast made
/// elsewhere cannot tell at once that it does not conform, so only the
/// waiting forms count it exactly.
@MainActor final class Bystander {
    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
}

/// A listener whose call signals a semaphore, so a test can hold the main
/// actor until a broadcast has been made.
final class SignallingSpy: Greeting, Sendable {
    let called = DispatchSemaphore(value: 0)

    func greet(_ who: String) { called.signal() }
}

/// A `Greeting` listener that is not `Sendable` (its state is a plain
/// array): registered from main-actor code, it is only called there.
final class PlainGreeter: Greeting {
    private(set) var greetings: [String] = []

    func greet(_ name: String) { greetings.append(name) }
}
