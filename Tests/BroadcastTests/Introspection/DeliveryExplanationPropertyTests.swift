import Broadcast
import Foundation
import Testing

/// The property behind `deliveryExplanation(for:to:isolation:)`: for random
/// populations and places to broadcast from, the explanation computed just
/// before a broadcast, in the same place, predicts exactly whether that
/// broadcast calls each listener, and where.
///
/// - `calledHere`: called once, on the broadcasting thread, before
///   `broadcast` returns;
/// - `scheduled(on:)`: called once, later, on that actor;
/// - `scheduledIfConforming(on:)`: called once on that actor if the listener
///   really conforms there, never otherwise; counted by the broadcast unless
///   its sentence says the main actor has not cast it yet;
/// - anything else: never called.
///
/// Each seed builds a population, then runs rounds; each round picks a host
/// (a plain thread, a detached task, a main-actor task, another actor, a
/// `DispatchQueue.main.async` block, the same under `assumeIsolated`),
/// optionally through a non-isolated helper (so `#isolation` is nil), asks
/// about every listener, broadcasts once, waits for the scheduled calls and
/// compares. Later rounds run against the index and conformance cache that
/// earlier rounds (and scheduled calls) left behind.
@Suite("Delivery explanation agrees with broadcasts", .timeLimit(.minutes(2)))
struct DeliveryExplanationPropertyTests {
    static let seeds = 60
    static let roundsPerSeed = 4

    /// What a population member is, and the truth a test can know about it.
    enum Kind: CaseIterable {
        case plain, stranger, isolatedScreen, mainPinger, mainStranger, mainConformer, onRegistrar,
            registration, registrationOnRegistrarThenAdded, otherRegistration, stoppedRegistration, removed, released,
            readdedWithoutActor

        /// Whether a call scheduled on the listener's actor finds it
        /// conforming there.
        var conformsOnItsActor: Bool {
            switch self {
            case .stranger, .mainStranger, .otherRegistration, .stoppedRegistration, .removed, .released: false
            default: true
            }
        }

        /// Whether this kind can get `explanation` at all (from any host).
        func isPlausible(_ explanation: DeliveryExplanation) -> Bool {
            switch self {
            case .plain, .registration, .readdedWithoutActor: explanation == .calledHere
            // Off the main actor, until it has settled the listener, its call
            // goes there; not counted.
            case .stranger:
                explanation == .doesNotConform || explanation == .scheduledIfConforming(on: MainActor.shared)
            case .mainConformer:
                explanation == .calledHere || explanation == .doesNotConform
                    || explanation == .scheduledIfConforming(on: MainActor.shared)
            case .otherRegistration: explanation == .registeredOnlyForOtherProtocols(["Unrelated"])
            case .stoppedRegistration: explanation == .registrationStopped
            case .removed: explanation == .notRegistered
            case .mainStranger: explanation == .doesNotConform || explanation.reachesListener
            case .isolatedScreen, .mainPinger, .onRegistrar, .registrationOnRegistrarThenAdded:
                explanation.reachesListener
            case .released: false
            }
        }
    }

    enum Host: CaseIterable {
        case thread, detachedTask, mainActorTask, registrar, mainQueueBlock, mainQueueAssumedIsolated
    }

    struct RoundResult: Sendable {
        let explanations: [DeliveryExplanation]
        let boxedValue: DeliveryExplanation
        /// `listenerCount(of:)` and `listeners(of:)`, asked in the same place.
        let count: Int
        let handedOut: Set<ObjectIdentifier>
        let made: Int
    }

    /// One population: the listeners (kept alive by this value), their kinds,
    /// and what keeps registrations alive.
    struct Population: Sendable {
        var listeners: [any AnyObject & Sendable] = []
        var kinds: [Kind] = []
        var registrations: [ListenerRegistration] = []
    }

    @Test(arguments: 0..<seeds)
    func explanationPredictsTheBroadcast(seed: Int) async {
        var rng = SplitMix64(seed: UInt64(seed))
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let registrar = Registrar()
        let population = await Self.makePopulation(broadcaster, record, registrar, &rng)
        if rng.chance(50) {
            // Build the index somewhere first, as an earlier broadcast would.
            _ = await Self.countListeners(broadcaster, from: rng.pick(Host.allCases), registrar)
        }
        for round in 0..<Self.roundsPerSeed {
            record.reset()
            let host = rng.pick(Host.allCases)
            let viaHelper = rng.chance(30)
            let result = await Self.run(
                broadcaster, population.listeners, record, n: round, from: host, viaHelper: viaHelper, registrar)
            await broadcaster.waitForScheduledDeliveries()
            let context = "seed \(seed), round \(round), \(host)\(viaHelper ? " via a non-isolated helper" : "")"
            Self.check(result, population, record, broadcaster, context: context)
        }
        withExtendedLifetime(population) {}
    }

    static func check(
        _ result: RoundResult, _ population: Population, _ record: CallRecord, _ broadcaster: Broadcaster,
        context: String
    ) {
        #expect(result.boxedValue == .refusedAsBoxedValue, "\(context)")
        let counted = result.explanations.filter { $0.reachesListener && !Self.waitsForTheMainActorsCast($0) }
        #expect(counted.count == result.made, "\(context)")
        #expect(result.count == result.made, "\(context): listenerCount(of:) agrees with the broadcast")
        let calledHere = population.listeners.indices.filter { result.explanations[$0] == .calledHere }
        #expect(
            result.handedOut == Set(calledHere.map { ObjectIdentifier(population.listeners[$0]) }),
            "\(context): listeners(of:) hands out exactly the listeners called here")
        for (id, explanation) in result.explanations.enumerated() {
            let kind = population.kinds[id]
            let calls = record.calls(of: id)
            let what = "\(context): listener \(id) (\(kind)) explained as \(explanation); calls \(calls)"
            #expect(kind.isPlausible(explanation), "\(what)")
            if explanation == .calledHere {
                #expect(calls.count == 1 && calls.allSatisfy(\.duringBroadcastOnThisThread), "\(what)")
            } else if let actor = explanation.actor, explanation == .scheduled(on: actor) {
                #expect(calls.count == 1, "\(what)")
                #expect(calls.allSatisfy { Self.ranScheduled($0, on: actor) }, "\(what)")
            } else if let actor = explanation.actor, explanation == .scheduledIfConforming(on: actor) {
                #expect(calls.count == (kind.conformsOnItsActor ? 1 : 0), "\(what)")
                #expect(calls.allSatisfy { Self.ranScheduled($0, on: actor) }, "\(what)")
            } else {
                #expect(calls.isEmpty, "\(what)")
            }
            let registered = broadcaster.isRegistered(population.listeners[id])
            let expectedRegistered = ![.notRegistered, .registrationStopped].contains(explanation)
            #expect(registered == expectedRegistered, "\(what)")
        }
    }

    /// A call to a listener with no actor that the main actor has not cast:
    /// scheduled there, but not counted.
    static func waitsForTheMainActorsCast(_ explanation: DeliveryExplanation) -> Bool {
        explanation == .scheduledIfConforming(on: MainActor.shared)
            && explanation.description.hasSuffix("not counted until the main actor has cast it")
    }

    /// A scheduled call runs after the broadcast, on the actor (the main
    /// actor's calls on the main queue; the registrar's listeners assert
    /// their actor themselves).
    static func ranScheduled(_ call: RecordedCall, on actor: any Actor) -> Bool {
        !call.duringBroadcastOnThisThread && (actor !== MainActor.shared || call.onMainQueue)
    }

    // MARK: - Population

    static func makePopulation(
        _ broadcaster: Broadcaster, _ record: CallRecord, _ registrar: Registrar, _ rng: inout SplitMix64
    ) async -> Population {
        var population = Population()
        var released: [PlainPinger] = []
        let size = 4 + rng.below(10)
        for _ in 0..<size {
            let kind = rng.pick(Kind.allCases)
            let id = population.listeners.count
            let listener: any AnyObject & Sendable
            switch kind {
            case .plain:
                listener = PlainPinger(id: id, record: record)
                addFromNonisolatedCode(listener, to: broadcaster)
            case .stranger:
                listener = Stranger()
                addFromNonisolatedCode(listener, to: broadcaster)
            case .isolatedScreen:
                listener = await MainActor.run {
                    let screen = IsolatedPinger(id: id, record: record)
                    broadcaster.addListener(screen)
                    return screen
                }
            case .mainPinger:
                listener = await MainActor.run {
                    let pinger = MainPinger(id: id, record: record)
                    broadcaster.addListener(pinger)
                    return pinger
                }
            case .mainStranger:
                listener = await MainActor.run {
                    let stranger = MainStranger()
                    broadcaster.addListener(stranger)
                    return stranger
                }
            case .mainConformer:
                listener = MainConformer(id: id, record: record)
                addFromNonisolatedCode(listener, to: broadcaster)
            case .onRegistrar:
                let pinger = PlainPinger(id: id, record: record)
                await registrar.add(pinger, to: broadcaster)
                listener = pinger
            case .registration:
                listener = PlainPinger(id: id, record: record)
                let registration = ListenerRegistration(listener, for: Ping.self, on: broadcaster)
                registration.start()
                population.registrations.append(registration)
            case .registrationOnRegistrarThenAdded:
                listener = PlainPinger(id: id, record: record)
                let registration = ListenerRegistration(listener, for: Ping.self, on: broadcaster)
                await registrar.start(registration)
                addFromNonisolatedCode(listener, to: broadcaster)
                population.registrations.append(registration)
            case .otherRegistration:
                listener = PlainPinger(id: id, record: record)
                let registration = ListenerRegistration(listener, for: Unrelated.self, on: broadcaster)
                registration.start()
                population.registrations.append(registration)
            case .stoppedRegistration:
                listener = PlainPinger(id: id, record: record)
                let registration = ListenerRegistration(listener, for: Ping.self, on: broadcaster)
                registration.start()
                registration.stop()
                population.registrations.append(registration)
            case .removed:
                listener = PlainPinger(id: id, record: record)
                addFromNonisolatedCode(listener, to: broadcaster)
                broadcaster.removeListener(listener)
            case .readdedWithoutActor:
                // Registered on the registrar, indexed, removed, added again
                // from non-isolated code: the index may still hold the removed
                // entry ahead of the new one.
                let pinger = PlainPinger(id: id, record: record)
                await registrar.add(pinger, to: broadcaster)
                _ = broadcaster.listenerCount(of: Ping.self)
                broadcaster.removeListener(pinger)
                addFromNonisolatedCode(pinger, to: broadcaster)
                listener = pinger
            case .released:
                // Registered, then released: noise in the table, not asked about.
                let doomed = PlainPinger(id: -1, record: record)
                addFromNonisolatedCode(doomed, to: broadcaster)
                released.append(doomed)
                continue
            }
            population.listeners.append(listener)
            population.kinds.append(kind)
        }
        released.removeAll()
        return population
    }

    /// Registers from non-isolated code: the listener gets no actor.
    static func addFromNonisolatedCode(_ listener: AnyObject, to broadcaster: Broadcaster) {
        broadcaster.addListenerAsInSwift5(listener)
    }

    // MARK: - Hosts

    static func run(
        _ broadcaster: Broadcaster, _ listeners: [any AnyObject & Sendable], _ record: CallRecord, n: Int,
        from host: Host, viaHelper: Bool, _ registrar: Registrar
    ) async -> RoundResult {
        switch host {
        case .thread:
            await onNewThread { round(broadcaster, listeners, record, n: n, viaHelper: viaHelper) }
        case .detachedTask:
            await Task.detached { round(broadcaster, listeners, record, n: n, viaHelper: viaHelper) }.value
        case .mainActorTask:
            await Task { @MainActor in round(broadcaster, listeners, record, n: n, viaHelper: viaHelper) }.value
        case .registrar:
            await registrar.round(broadcaster, listeners, record, n: n, viaHelper: viaHelper)
        case .mainQueueBlock:
            await onMainQueueBlock { round(broadcaster, listeners, record, n: n, viaHelper: viaHelper) }
        case .mainQueueAssumedIsolated:
            await onMainQueueBlock {
                MainActor.assumeIsolated { round(broadcaster, listeners, record, n: n, viaHelper: viaHelper) }
            }
        }
    }

    static func countListeners(_ broadcaster: Broadcaster, from host: Host, _ registrar: Registrar) async -> Int {
        switch host {
        case .thread: await onNewThread { broadcaster.listenerCount(of: Ping.self) }
        case .detachedTask: await Task.detached { broadcaster.listenerCount(of: Ping.self) }.value
        case .mainActorTask: await Task { @MainActor in broadcaster.listenerCount(of: Ping.self) }.value
        case .registrar: await registrar.countListeners(broadcaster)
        case .mainQueueBlock: await onMainQueueBlock { broadcaster.listenerCount(of: Ping.self) }
        case .mainQueueAssumedIsolated:
            await onMainQueueBlock { MainActor.assumeIsolated { broadcaster.listenerCount(of: Ping.self) } }
        }
    }

    /// Asks about every listener, then broadcasts, all in the caller's
    /// isolation (or, through the helper, with none).
    static func round(
        _ broadcaster: Broadcaster, _ listeners: [any AnyObject & Sendable], _ record: CallRecord, n: Int,
        viaHelper: Bool, isolation: isolated (any Actor)? = #isolation
    ) -> RoundResult {
        if viaHelper { return roundFromNonisolatedCode(broadcaster, listeners, record, n: n) }
        return explainThenBroadcast(broadcaster, listeners, record, n: n)
    }

    /// `#isolation` is nil here, wherever it is called from.
    static func roundFromNonisolatedCode(
        _ broadcaster: Broadcaster, _ listeners: [any AnyObject & Sendable], _ record: CallRecord, n: Int
    ) -> RoundResult {
        explainThenBroadcast(broadcaster, listeners, record, n: n)
    }

    static func explainThenBroadcast(
        _ broadcaster: Broadcaster, _ listeners: [any AnyObject & Sendable], _ record: CallRecord, n: Int,
        isolation: isolated (any Actor)? = #isolation
    ) -> RoundResult {
        struct BoxedValue {}
        var explanations: [DeliveryExplanation] = []
        for listener in listeners {
            explanations.append(broadcaster.deliveryExplanation(for: listener, to: Ping.self))
        }
        let boxedValue = broadcaster.deliveryExplanation(for: BoxedValue() as AnyObject, to: Ping.self)
        let count = broadcaster.listenerCount(of: Ping.self)
        let handedOut = Set(broadcaster.listeners(of: Ping.self).map { ObjectIdentifier($0) })
        record.beginBroadcast()
        let made = broadcaster.broadcast(to: Ping.self) { $0.ping(n) }
        record.endBroadcast()
        return RoundResult(
            explanations: explanations, boxedValue: boxedValue, count: count, handedOut: handedOut, made: made)
    }
}

extension Registrar {
    func round(
        _ broadcaster: Broadcaster, _ listeners: [any AnyObject & Sendable], _ record: CallRecord, n: Int,
        viaHelper: Bool
    ) -> DeliveryExplanationPropertyTests.RoundResult {
        DeliveryExplanationPropertyTests.round(broadcaster, listeners, record, n: n, viaHelper: viaHelper)
    }

    func countListeners(_ broadcaster: Broadcaster) -> Int {
        broadcaster.listenerCount(of: Ping.self)
    }
}
