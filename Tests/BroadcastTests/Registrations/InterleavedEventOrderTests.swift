import Broadcast
import Foundation
import Testing

/// One post reaches closure handlers, `EventListener` objects and
/// `events(of:)` streams of its event in one table, in registration order,
/// whichever kind each one is.
///
/// A stream's place is read from the order of its elements: one recipient
/// posts a second event from inside its call, which every recipient then
/// receives at once, so a stream called before that recipient holds
/// `[first, second]`, one called after it `[second, first]`.
@Suite("Handlers, EventListener objects and streams of one event, interleaved", .timeLimit(.minutes(1)))
struct InterleavedEventOrderTests {
    /// Handler `a`, object `l`, stream 1, handler `b`, object `m`, stream 2,
    /// handler `c`; `reposter` posts `second` from its call of `first`.
    private struct Interleaved {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let tokens: [BroadcastToken]
        let listeners: [RepostingSpy]
        let streams: [BroadcastEvents<SignedIn>]

        init(reposter: String) {
            let (broadcaster, log) = (broadcaster, log)
            func handler(_ name: String) -> BroadcastToken {
                broadcaster.addHandler(for: SignedIn.self) { event in
                    log.append("\(name)(\(event.user))")
                    if name == reposter, event.user == "first" { broadcaster.post(SignedIn(user: "second")) }
                }
            }
            func listener(_ name: String) -> RepostingSpy {
                let spy = RepostingSpy(name, log: log, reposting: name == reposter ? broadcaster : nil)
                broadcaster.addListener(spy)
                return spy
            }
            var tokens: [BroadcastToken] = []
            var listeners: [RepostingSpy] = []
            var streams: [BroadcastEvents<SignedIn>] = []
            tokens.append(handler("a"))
            listeners.append(listener("l"))
            streams.append(broadcaster.events(of: SignedIn.self))
            tokens.append(handler("b"))
            listeners.append(listener("m"))
            streams.append(broadcaster.events(of: SignedIn.self))
            tokens.append(handler("c"))
            (self.tokens, self.listeners, self.streams) = (tokens, listeners, streams)
        }

        /// The first two elements of each stream, already buffered by the posts.
        func streamed() async -> [[String]] {
            var all: [[String]] = []
            for stream in streams {
                var iterator = stream.makeAsyncIterator()
                var users: [String] = []
                while users.count < 2, let event = await iterator.next() { users.append(event.user) }
                all.append(users)
            }
            return all
        }
    }

    @Test("a handler posting from its call: everything registered before it is called first")
    func repostFromAHandler() async {
        let setup = Interleaved(reposter: "b")
        let count = setup.broadcaster.post(SignedIn(user: "first"))
        #expect(count == 7)
        #expect(
            setup.log.all == [
                "a(first)", "l(first)", "b(first)",
                "a(second)", "l(second)", "b(second)", "m(second)", "c(second)",
                "m(first)", "c(first)",
            ])
        #expect(await setup.streamed() == [["first", "second"], ["second", "first"]])
    }

    @Test("an EventListener object posting from its call: the stream after it is called after it")
    func repostFromAListener() async {
        let setup = Interleaved(reposter: "l")
        setup.broadcaster.post(SignedIn(user: "first"))
        #expect(
            setup.log.all == [
                "a(first)", "l(first)",
                "a(second)", "l(second)", "b(second)", "m(second)", "c(second)",
                "b(first)", "m(first)", "c(first)",
            ])
        #expect(await setup.streamed() == [["second", "first"], ["second", "first"]])
    }
}

/// An `EventListener` of `SignedIn` that logs, and may post `second` from
/// its call of `first`.
private final class RepostingSpy: EventListener, Sendable {
    let name: String
    let log: DeliveryLog
    weak let broadcaster: Broadcaster?

    init(_ name: String, log: DeliveryLog, reposting broadcaster: Broadcaster?) {
        self.name = name
        self.log = log
        self.broadcaster = broadcaster
    }

    func receive(_ event: SignedIn) {
        log.append("\(name)(\(event.user))")
        if event.user == "first" { broadcaster?.post(SignedIn(user: "second")) }
    }
}

/// A post reaches the `EventListener` objects of its own event only.
@Suite("EventListener objects of other events", .timeLimit(.minutes(1)))
struct OtherEventListenerTests {
    @Test("a post neither calls nor counts an EventListener of another event")
    func anObjectOfAnotherEventIsSkipped() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let signedIn = SpyListener("signedIn", log: log)
        let connectivity = ConnectivitySpy(log: log)
        broadcaster.addListener(connectivity)
        broadcaster.addListener(signedIn)

        #expect(broadcaster.post(SignedIn(user: "ada")) == 1)
        #expect(broadcaster.post(Connectivity(isOnline: true)) == 1)
        #expect(log.all == ["signedIn.signedIn(ada)", "connectivity(true)"])
    }

    // An object of an actor is taken into the index of another event's post
    // when that post runs off the actor (its conformance can be checked only
    // there); the next post made on the actor, before the scheduled call
    // settles it, finds it an `EventListener` of another event.
    @Test("a post on the actor skips an object of another event that an earlier post took in off it")
    @MainActor func anObjectTakenInOffItsActorIsSkippedThere() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let connectivity = ConnectivitySpy(log: log)
        broadcaster.addListener(connectivity, calledOn: MainActor.shared)
        // Posted from another thread while this one waits, so the scheduled
        // call cannot run yet.
        let scheduled = Locked(0)
        let posted = DispatchSemaphore(value: 0)
        Thread {
            scheduled.withLock { $0 = broadcaster.post(SignedIn(user: "elsewhere")) }
            posted.signal()
        }.start()
        posted.wait()

        #expect(scheduled.withLock { $0 } == 1, "off the actor the call is scheduled, the actor settles it")
        #expect(broadcaster.post(SignedIn(user: "here")) == 0)
        #expect(log.all.isEmpty)
    }
}

/// An `EventListener` of `Connectivity` that logs.
private final class ConnectivitySpy: EventListener, Sendable {
    let log: DeliveryLog

    init(log: DeliveryLog) {
        self.log = log
    }

    func receive(_ event: Connectivity) { log.append("connectivity(\(event.isOnline))") }
}
