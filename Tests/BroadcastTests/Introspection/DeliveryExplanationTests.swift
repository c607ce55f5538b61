import Broadcast
import Foundation
import Testing

/// `deliveryExplanation(for:to:isolation:)`, case by case, each checked
/// against the broadcast it explains.
@Suite("Delivery explanation", .timeLimit(.minutes(1)))
struct DeliveryExplanationTests {
    @Test func aConformingListenerWithNoActorIsCalledHere() {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        broadcaster.addListener(listener)
        #expect(broadcaster.deliveryExplanation(for: listener, to: Ping.self) == .calledHere)
        record.broadcasting { _ = broadcaster.ping(1) }
        #expect(record.calls(of: 1).map(\.duringBroadcastOnThisThread) == [true])
    }

    @Test func aNeverAddedRemovedOrOtherBroadcastersListenerIsNotRegistered() {
        let broadcaster = Broadcaster()
        let other = Broadcaster()
        let record = CallRecord()
        let never = PlainPinger(id: 1, record: record)
        let removed = PlainPinger(id: 2, record: record)
        let elsewhere = PlainPinger(id: 3, record: record)
        broadcaster.addListener(removed)
        broadcaster.removeListener(removed)
        other.addListener(elsewhere)
        for listener in [never, removed, elsewhere] {
            #expect(broadcaster.deliveryExplanation(for: listener, to: Ping.self) == .notRegistered)
        }
        #expect(broadcaster.ping(1) == 0)
        #expect(record.calls(of: 1).isEmpty && record.calls(of: 2).isEmpty && record.calls(of: 3).isEmpty)
    }

    @Test func aListenerRegisteredForAnotherProtocolSaysWhich() {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        let registration = ListenerRegistration(listener, for: Unrelated.self, on: broadcaster)
        registration.start()
        let explanation = broadcaster.deliveryExplanation(for: listener, to: Ping.self)
        #expect(explanation == .registeredOnlyForOtherProtocols(["Unrelated"]))
        #expect(explanation.description == "registered only for other protocols: Unrelated")
        #expect(broadcaster.ping(1) == 0)
        #expect(record.calls(of: 1).isEmpty)
    }

    @Test func aStoppedRegistrationSaysSoUntilItStartsAgain() {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        let registration = ListenerRegistration(listener, for: Ping.self, on: broadcaster)
        #expect(broadcaster.deliveryExplanation(for: listener, to: Ping.self) == .notRegistered)
        registration.start()
        registration.stop()
        #expect(broadcaster.deliveryExplanation(for: listener, to: Ping.self) == .registrationStopped)
        #expect(broadcaster.ping(1) == 0)
        registration.start()
        #expect(broadcaster.deliveryExplanation(for: listener, to: Ping.self) == .calledHere)
        #expect(broadcaster.ping(2) == 1)
        #expect(record.calls(of: 1).count == 1)
    }

    @Test func aReleasedRegistrationReadsAsStopped() {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        var registrations: ListenerRegistrations? = ListenerRegistrations(broadcaster: broadcaster)
        registrations?.add(listener, for: Ping.self, lifespan: .lifetime)
        #expect(broadcaster.deliveryExplanation(for: listener, to: Ping.self) == .calledHere)
        registrations = nil
        #expect(broadcaster.deliveryExplanation(for: listener, to: Ping.self) == .registrationStopped)
        #expect(broadcaster.ping(1) == 0)
    }

    @Test @MainActor func aNonConformingListenerDoesNotConform() {
        let broadcaster = Broadcaster()
        let stranger = Stranger()
        broadcaster.addListener(stranger)
        #expect(broadcaster.deliveryExplanation(for: stranger, to: Ping.self) == .doesNotConform)
        #expect(broadcaster.ping(1) == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func offTheMainActorTheMainActorCastsAListenerWithNoActorFirst() async {
        // Registered with no actor, a listener that is not a `Ping` here may
        // be one on the main actor only: the call goes there, not counted.
        let broadcaster = Broadcaster()
        let stranger = Stranger()
        broadcaster.addListener(stranger)
        let (explanation, made) = await onNewThread {
            (broadcaster.deliveryExplanation(for: stranger, to: Ping.self), broadcaster.ping(1))
        }
        #expect(explanation == .scheduledIfConforming(on: MainActor.shared))
        #expect(
            explanation.description
                == "scheduled on MainActor if it conforms there: it registered with no actor and does not conform "
                + "here, so the call goes to the main actor, where a conformance isolated to it holds; not counted "
                + "until the main actor has cast it")
        #expect(made == 0)
        #expect(await drained(broadcaster))
        // The main actor's cast settled it.
        #expect(await onNewThread { broadcaster.deliveryExplanation(for: stranger, to: Ping.self) } == .doesNotConform)
        withExtendedLifetime(stranger) {}
    }

    @Test func aBoxedValueIsRefused() {
        struct Value {}
        let broadcaster = Broadcaster()
        for boxed in [Value() as AnyObject, 42 as AnyObject, "text" as AnyObject] {
            #expect(broadcaster.deliveryExplanation(for: boxed, to: Ping.self) == .refusedAsBoxedValue)
        }
    }

    // MARK: - Actors

    @Test func anIsolatedConformanceAskedFromABackgroundThreadIsScheduledIfItConforms() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = await MainActor.run {
            let screen = IsolatedPinger(id: 1, record: record)
            broadcaster.addListener(screen)
            return screen
        }
        let (explanation, made) = await onNewThread {
            let explanation = broadcaster.deliveryExplanation(for: screen, to: Ping.self)
            return (explanation, record.broadcasting { broadcaster.ping(1) })
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(explanation == .scheduledIfConforming(on: MainActor.shared))
        #expect(
            explanation.description
                == "scheduled on MainActor if it conforms there: "
                + "its conformance can be used only on that actor, where it registered")
        #expect(made == 1)
        let calls = record.calls(of: 1)
        #expect(calls.count == 1)
        #expect(calls.allSatisfy { !$0.duringBroadcastOnThisThread && $0.onMainQueue })
    }

    @Test func anIsolatedConformanceAskedOnTheMainActorIsCalledHere() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let (explanation, callsDuringBroadcast) = await MainActor.run {
            let screen = IsolatedPinger(id: 1, record: record)
            broadcaster.addListener(screen)
            let explanation = broadcaster.deliveryExplanation(for: screen, to: Ping.self)
            record.broadcasting { _ = broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
            let calls = record.calls(of: 1).filter(\.duringBroadcastOnThisThread).count
            withExtendedLifetime(screen) {}
            return (explanation, calls)
        }
        #expect(explanation == .calledHere)
        #expect(callsDuringBroadcast == 1)
    }

    @Test func aMainActorListenerWithAPlainConformanceIsCalledWhereTheBroadcastRuns() async {
        // A main-actor class is Sendable; its conformance is not isolated, so
        // a broadcast from elsewhere calls it there, before returning.
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = await MainActor.run {
            let listener = MainPinger(id: 1, record: record)
            broadcaster.addListener(listener)
            return listener
        }
        let (explanation, calledBeforeReturning) = await Task.detached {
            let explanation = broadcaster.deliveryExplanation(for: listener, to: Ping.self)
            broadcaster.ping(1)
            return (explanation, record.calls(of: 1).count)
        }.value
        #expect(explanation == .calledHere)
        #expect(calledBeforeReturning == 1)
    }

    @MainActor @Test func aListenerBoundToTheMainActorIsScheduledFromElsewhere() async {
        // Not Sendable, registered from main-actor code: bound to the main
        // actor. Asking about it from another thread needs the object there,
        // which Swift 6 refuses for a value that is not Sendable; the test
        // hands it over unchecked, and only reads its identity there.
        let broadcaster = Broadcaster()
        let listener = ActorBoundPing(forwardingTo: CountingPing())
        broadcaster.addListener(listener, calledOn: MainActor.shared)
        nonisolated(unsafe) let asked: AnyObject = listener
        // Asked on a plain thread: in a task, code with no actor of its own
        // may run on an actor's executor, where a cast cannot prove a
        // conformance holds anywhere (the explanation then says "if it conforms").
        let explanation = await onNewThread { broadcaster.deliveryExplanation(for: asked, to: Ping.self) }
        #expect(explanation == .scheduled(on: MainActor.shared))
        #expect(
            explanation.description
                == "scheduled on MainActor: it is bound to that actor (calledOn:), so every call runs there")
    }

    @Test func aMainActorListenerThatDoesNotConformIsSettledByItsFirstScheduledCall() async {
        let broadcaster = Broadcaster()
        let stranger = await MainActor.run {
            let stranger = MainStranger()
            broadcaster.addListener(stranger)
            return stranger
        }
        let before = await onNewThread { broadcaster.deliveryExplanation(for: stranger, to: Ping.self) }
        #expect(before == .scheduledIfConforming(on: MainActor.shared))
        let made = await onNewThread { broadcaster.ping(1) }
        #expect(made == 1)  // scheduled, then found not to conform on the main actor
        await broadcaster.waitForScheduledDeliveries()
        let after = await onNewThread { broadcaster.deliveryExplanation(for: stranger, to: Ping.self) }
        #expect(after == .doesNotConform)
        #expect(await onNewThread { broadcaster.ping(2) } == 0)
        let onMain = await MainActor.run { broadcaster.deliveryExplanation(for: stranger, to: Ping.self) }
        #expect(onMain == .doesNotConform)
    }

    @Test func aSendableListenerRegisteredOnAnotherActorIsCalledWhereTheBroadcastRuns() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let registrar = Registrar()
        let listener = PlainPinger(id: 1, record: record)
        await registrar.add(listener, to: broadcaster)
        let there = await registrar.run { _ in broadcaster.deliveryExplanation(for: listener, to: Ping.self) }
        let elsewhere = await onNewThread { broadcaster.deliveryExplanation(for: listener, to: Ping.self) }
        #expect(there == .calledHere)
        #expect(elsewhere == .calledHere)
    }

    @Test func aListenerRemovedAndAddedAgainIsJudgedByItsNewRegistration() async {
        // The index keeps the removed entry (registered on the registrar)
        // until its next filter, ahead of the new one (no actor); a broadcast
        // skips the removed entry, and so must the explanation.
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let registrar = Registrar()
        let listener = PlainPinger(id: 1, record: record)
        await registrar.add(listener, to: broadcaster)
        // Enough other members that the removal neither compacts the table
        // nor filters the index.
        let others = (2...5).map { PlainPinger(id: $0, record: record) }
        for other in others { broadcaster.addListener(other) }
        #expect(broadcaster.listenerCount(of: Ping.self) == 5)  // builds the index
        broadcaster.removeListener(listener)
        broadcaster.addListener(listener)
        let explanation = await onNewThread { broadcaster.deliveryExplanation(for: listener, to: Ping.self) }
        #expect(explanation == .calledHere)
        let made = await onNewThread { record.broadcasting { broadcaster.ping(1) } }
        await broadcaster.waitForScheduledDeliveries()
        #expect(made == 5)
        #expect(record.calls(of: 1).map(\.duringBroadcastOnThisThread) == [true])
        withExtendedLifetime(others) {}
    }

    // MARK: - Asking changes nothing

    @Test func askingBeforeAnyBroadcastDoesNotChangeWhatTheBroadcastDoes() async {
        // A listener with no actor whose conformance is isolated to the main
        // actor is a `Ping` only there. Asked from a background thread before
        // any broadcast, the answer is "scheduled on the main actor if it
        // conforms there"; a broadcast made afterwards on the main actor
        // must still call it, so the question must not have kept an index
        // built off the main actor.
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = MainConformer(id: 1, record: record)
        broadcaster.addListener(listener)
        let offMain = await onNewThread { broadcaster.deliveryExplanation(for: listener, to: Ping.self) }
        #expect(offMain == .scheduledIfConforming(on: MainActor.shared))
        let (onMain, made) = await MainActor.run {
            (broadcaster.deliveryExplanation(for: listener, to: Ping.self), broadcaster.ping(1))
        }
        #expect(onMain == .calledHere)
        #expect(made == 1)
        #expect(record.calls(of: 1).count == 1)
    }

    @Test func reachesListenerIsTrueForTheThreeDeliveringCases() {
        let explanations: [DeliveryExplanation] = [
            .calledHere, .scheduled(on: MainActor.shared), .scheduledIfConforming(on: MainActor.shared),
            .notRegistered, .registeredOnlyForOtherProtocols(["P"]), .registrationStopped, .doesNotConform,
            .refusedAsBoxedValue,
        ]
        #expect(explanations.map(\.reachesListener) == [true, true, true, false, false, false, false, false])
        #expect(Set(explanations.map(\.description)).count == explanations.count)
    }

    @Test func theValuesADecisionCarriesAreReadAsProperties() {
        let other = CacheActor.shared
        #expect(DeliveryExplanation.scheduled(on: MainActor.shared).actor === MainActor.shared)
        #expect(DeliveryExplanation.scheduledIfConforming(on: other).actor === other)
        #expect(DeliveryExplanation.calledHere.actor === nil)
        #expect(DeliveryExplanation.registeredOnlyForOtherProtocols(["P", "Q"]).otherProtocols == ["P", "Q"])
        #expect(DeliveryExplanation.notRegistered.otherProtocols.isEmpty)
    }

    @Test func equalityComparesTheDecisionAndActorsByIdentity() {
        let other = CacheActor.shared
        #expect(DeliveryExplanation.scheduled(on: MainActor.shared) == .scheduled(on: MainActor.shared))
        #expect(DeliveryExplanation.scheduled(on: MainActor.shared) != .scheduled(on: other))
        #expect(DeliveryExplanation.scheduled(on: other) != .scheduledIfConforming(on: other))
        #expect(DeliveryExplanation.registeredOnlyForOtherProtocols(["P"]) != .registeredOnlyForOtherProtocols(["Q"]))
        #expect(DeliveryExplanation.calledHere != .doesNotConform)
    }

    @Test func aSwitchMatchesTheStaticMembers() {
        func name(of explanation: DeliveryExplanation) -> String {
            switch explanation {
            case .calledHere: "calledHere"
            case .notRegistered, .registrationStopped: "not listening"
            case _ where explanation == .scheduled(on: MainActor.shared): "scheduled on the main actor"
            default: "other"
            }
        }
        #expect(name(of: .calledHere) == "calledHere")
        #expect(name(of: .scheduled(on: MainActor.shared)) == "scheduled on the main actor")
        #expect(name(of: .registrationStopped) == "not listening")
        #expect(name(of: .doesNotConform) == "other")
    }
}
