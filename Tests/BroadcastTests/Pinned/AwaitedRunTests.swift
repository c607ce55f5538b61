import Broadcast
import Testing

/// Told of an arrival asynchronously; its requirement runs where its caller
/// runs, so a listener can record the actor it was called on.
protocol ArrivalListener: AnyObject {
    nonisolated(nonsending) func arrived(_ number: Int) async
}

/// A main-actor screen with an isolated conformance, registered from its
/// main-actor initializer.
@MainActor final class ArrivalScreen {
    let name: String
    let log: EventLog

    init(_ name: String, log: EventLog, broadcaster: Broadcaster) {
        self.name = name
        self.log = log
        broadcaster.addListener(self)
    }
}

extension ArrivalScreen: @MainActor ArrivalListener {
    @MainActor func arrived(_ number: Int) async {
        log.record("\(name):\(number)@\(mainQueueOrElsewhere)")
    }
}

/// An actor whose member listens, registered from the actor's code.
actor Lounge {
    private var members: [LoungeMember] = []

    /// Registers a member on this actor.
    func admit(_ log: EventLog, to broadcaster: Broadcaster) {
        let member = LoungeMember(lounge: self, log: log)
        members.append(member)
        broadcaster.addListener(member)
    }
}

/// A plain listener of a ``Lounge``: records whether it is called there.
final class LoungeMember: ArrivalListener, Sendable {
    let lounge: Lounge
    let log: EventLog

    init(lounge: Lounge, log: EventLog) {
        self.lounge = lounge
        self.log = log
    }

    nonisolated(nonsending) func arrived(_ number: Int) async {
        let place = #isolation === lounge ? "lounge" : #isolation === MainActor.shared ? "main actor" : "elsewhere"
        log.record("lounge member:\(number)@\(place)")
    }
}

/// A cache isolated to ``CacheActor``, with a conformance isolated to it,
/// registered from that actor.
@CacheActor final class ArrivalCache {
    let log: EventLog

    init(log: EventLog) { self.log = log }

    func register(with broadcaster: Broadcaster) {
        broadcaster.addListener(self)
    }
}

extension ArrivalCache: @CacheActor ArrivalListener {
    @CacheActor func arrived(_ number: Int) async {
        CacheActor.shared.assertIsolated()
        log.record("cache:\(number)@cache actor")
    }
}

/// Pinned: a sequential awaited broadcast calls consecutive listeners of
/// different actors each on its own actor.
///
/// Consecutive listeners of one
/// actor may share a hop there; listeners of two actors never do (checked
/// with the run of calls extended across actors in
/// `AwaitedDelivery.deliverSequentially`: the lounge member is then called
/// on the main actor and the cache, whose conformance only holds on its
/// actor, not at all).
@Suite("Pinned: awaited calls hop to each listener's actor", .timeLimit(.minutes(1)))
struct AwaitedRunTests {
    /// A screen, a lounge member, a cache and another screen, in that
    /// registration order.
    static func population(
        _ broadcaster: Broadcaster, log: EventLog
    ) async -> (ArrivalScreen, Lounge, ArrivalCache, ArrivalScreen) {
        let first = await ArrivalScreen("first screen", log: log, broadcaster: broadcaster)
        let lounge = Lounge()
        await lounge.admit(log, to: broadcaster)
        let cache = await ArrivalCache(log: log)
        await cache.register(with: broadcaster)
        let second = await ArrivalScreen("second screen", log: log, broadcaster: broadcaster)
        return (first, lounge, cache, second)
    }

    /// What one broadcast of `number` records, in order.
    static func expected(_ number: Int) -> [String] {
        [
            "first screen:\(number)@main queue", "lounge member:\(number)@lounge", "cache:\(number)@cache actor",
            "second screen:\(number)@main queue",
        ]
    }

    /// An awaited broadcast made on the main actor.
    @MainActor static func broadcastOnMainActor(_ number: Int, with broadcaster: Broadcaster) async -> Int {
        await broadcaster.broadcast(awaitingEach: ArrivalListener.self) { await $0.arrived(number) }
    }

    @Test func listenersOfDifferentActorsInARowAreEachCalledOnTheirOwnActor() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let population = await Self.population(broadcaster, log: log)

        let fromNoActor = await Task.detached {
            await broadcaster.broadcast(awaitingEach: ArrivalListener.self) { await $0.arrived(1) }
        }.value
        let fromMainActor = await Self.broadcastOnMainActor(2, with: broadcaster)

        #expect(fromNoActor == 4)
        #expect(fromMainActor == 4)
        #expect(log.all == Self.expected(1) + Self.expected(2))
        withExtendedLifetime(population) {}
    }
}
