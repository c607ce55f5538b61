import Broadcast

/// Events and protocols used by the registration tests.
protocol Greeting: AnyObject { func greet(_ name: String) }
protocol Farewell: AnyObject { func bid(_ name: String) }

struct SignedIn: Sendable, Equatable { let user: String }
struct Connectivity: Sendable, Equatable { let isOnline: Bool }

/// A thread-safe, shared log that spies append to, so that tests can assert on
/// what was delivered, in what order, after the fact.
final class DeliveryLog: Sendable {
    private let entries = Locked<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}

/// A listener to both protocols and to `SignedIn` values that records every call.
final class SpyListener: Greeting, Farewell, EventListener, Sendable {
    let name: String
    let log: DeliveryLog

    init(_ name: String, log: DeliveryLog) {
        self.name = name
        self.log = log
    }

    func greet(_ who: String) { log.append("\(name).greet(\(who))") }
    func bid(_ who: String) { log.append("\(name).bid(\(who))") }
    func receive(_ event: SignedIn) { log.append("\(name).signedIn(\(event.user))") }
}

/// A `Greeting` listener that is not `Sendable`: its state is a plain
/// array, so it must only ever be called on one actor.
final class PlainGreeter: Greeting {
    private(set) var greetings: [String] = []

    func greet(_ who: String) { greetings.append("\(who)@\(mainQueueOrElsewhere)") }
}

extension Broadcaster {
    func greet(_ who: String) {
        broadcast(to: Greeting.self) { $0.greet(who) }
    }

    func bid(_ who: String) {
        broadcast(to: Farewell.self) { $0.bid(who) }
    }
}
