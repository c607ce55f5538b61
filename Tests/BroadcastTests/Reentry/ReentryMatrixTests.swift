import Broadcast
import Testing

/// User code may run anywhere and call back into the broadcaster.
///
/// One test per place where user code runs, each over every call it may
/// make back (``ReentryCall``): the call returns (no crash, no deadlock: the
/// suite's time limit turns one into a failure) and takes effect as
/// documented, checked by ``ReentryWorld/verifyRound(after:stickyStateCleared:sourceLocation:)``.
/// Every deinitializer runs at a point the test controls: the test drops the
/// last reference (of a listener, once the main actor's cast of it has
/// ended: `waitForScheduledDeliveries()`), or makes the broadcaster drop it
/// (a sticky broadcast replaced or cleared, a token cancelled), and checks
/// that the object is gone right after.
///
/// `waitForScheduledDeliveries()` is `async`, so only the awaited places make
/// it; synchronous places take ``ReentryCall/synchronous``.
@Suite("Re-entry: every place user code runs, every call back", .timeLimit(.minutes(1)))
struct ReentryMatrixTests {
    // MARK: - Calls made while a delivery runs

    @Test(arguments: ReentryCall.synchronous)
    func aListenerMethodMayCallBackIntoTheBroadcaster(_ call: ReentryCall) {
        let world = ReentryWorld()
        let kicker = Kicker { world.perform(call) }
        world.broadcaster.addListener(kicker)

        #expect(world.broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == 1)
        world.verifyRound(after: call)
        withExtendedLifetime(kicker) {}
    }

    @Test(arguments: ReentryCall.synchronous)
    func aHandlerClosureMayCallBackIntoTheBroadcaster(_ call: ReentryCall) {
        let world = ReentryWorld()
        let token = world.broadcaster.addHandler(for: ReentryKickEvent.self) { @Sendable _ in
            world.perform(call)
        }

        #expect(world.broadcaster.post(ReentryKickEvent()) == 1)
        world.verifyRound(after: call)
        withExtendedLifetime(token) {}
    }

    @Test(arguments: ReentryCall.synchronous)
    func aMainActorListenerReachedThroughItsMailboxMayCallBackIntoTheBroadcaster(_ call: ReentryCall) async {
        let world = ReentryWorld()
        let kicker = await Self.registerMainKicker(in: world) { world.perform(call) }

        // From here (no actor), the call is scheduled on the main actor.
        #expect(world.broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == 1)
        await world.broadcaster.waitForScheduledDeliveries()
        world.verifyRound(after: call)
        withExtendedLifetime(kicker) {}
    }

    @Test(arguments: ReentryCall.allCases)
    func anAwaitedListenerMayCallBackIntoTheBroadcaster(_ call: ReentryCall) async {
        let world = ReentryWorld()
        await world.addMainActorSpy()
        let kicker = AwaitedKicker { await world.performAwaiting(call) }
        world.broadcaster.addListener(kicker)

        #expect(await world.broadcaster.broadcast(awaitingEach: ReentryAwaitedKick.self) { await $0.kick() } == 1)
        world.verifyRound(after: call)
        withExtendedLifetime(kicker) {}
    }

    @Test(arguments: ReentryCall.allCases)
    func anAwaitedHandlerMayCallBackIntoTheBroadcaster(_ call: ReentryCall) async {
        let world = ReentryWorld()
        await world.addMainActorSpy()
        let token = world.broadcaster.addAwaitedHandler(for: ReentryKickEvent.self) { @Sendable _ in
            await world.performAwaiting(call)
        }

        #expect(await world.broadcaster.post(awaitingEach: ReentryKickEvent()) == 1)
        world.verifyRound(after: call)
        withExtendedLifetime(token) {}
    }

    @MainActor @Test(arguments: ReentryCall.allCases)
    func aMainActorAwaitedHandlerMayCallBackIntoTheBroadcaster(_ call: ReentryCall) async {
        let world = ReentryWorld()
        world.addMainActorSpy()
        let token = world.broadcaster.addAwaitedHandler(for: ReentryKickEvent.self) { _ in
            await world.performAwaiting(call)
        }

        let posted = await Task.detached { await world.broadcaster.post(awaitingEach: ReentryKickEvent()) }.value
        #expect(posted == 1)
        world.verifyRound(after: call)
        withExtendedLifetime(token) {}
    }

    @MainActor private static func registerMainKicker(
        in world: ReentryWorld, _ action: @escaping @Sendable () -> Void
    ) -> MainKicker {
        let kicker = MainKicker(action)
        world.broadcaster.addListener(kicker)
        return kicker
    }

    // MARK: - Calls made from a deinitializer

    @Test(arguments: ReentryCall.synchronous)
    func aListenerReleasedByItsOwnerMayCallBackFromItsDeinit(_ call: ReentryCall) async {
        let world = ReentryWorld()
        var listener: DeinitAction? = DeinitAction { world.perform(call) }
        weak let released = listener
        world.broadcaster.addListener(listener!)
        // Registered here (no actor), after the world's sticky broadcast: the
        // main actor casts it, and holds it while it does.
        #expect(await drained(world.broadcaster))
        #expect(world.broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == 1)

        listener = nil
        #expect(released == nil)
        world.verifyRound(after: call)
    }

    @Test(arguments: ReentryCall.synchronous)
    func aListenerReleasedDuringABroadcastMayCallBackFromItsDeinit(_ call: ReentryCall) async {
        let world = ReentryWorld()
        let holder = ReentryHolder(DeinitAction { world.perform(call) })
        weak let released = holder.value
        // The releaser comes first, so the listener dies before its turn.
        let releaser = Kicker { holder.release() }
        world.broadcaster.addListener(releaser)
        world.broadcaster.addListener(holder.value!)
        // As above: the main actor's cast no longer holds it.
        #expect(await drained(world.broadcaster))

        #expect(world.broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == 1)
        #expect(released == nil)
        world.verifyRound(after: call)
        withExtendedLifetime(releaser) {}
    }

    // fails on the 1.0 core: `Fatal error: Recursive call to lock Mutex`
    // (the replaced or cleared sticky broadcast is released under the
    // broadcaster's lock, and the payload's deinit takes it again).
    // Its cases run one at a time, so that each crash or failure is
    // reported for one case.
    @Test(.serialized, arguments: StickyRelease.allCases, ReentryCall.synchronous)
    func aStickyPayloadWhoseDeinitCallsBackIsReleasedOutsideTheLock(_ release: StickyRelease, _ call: ReentryCall)
        async
    {
        let world = ReentryWorld()
        var payload: DeinitAction? = DeinitAction { world.perform(call) }
        weak let released = payload
        world.broadcaster.broadcast(to: ReentryCarrier.self, with: payload!, sticky: true) { $0.carry($1) }
        payload = nil
        // The main actor settles the listeners that are not carriers, whose calls held the payload too.
        #expect(await drained(world.broadcaster))
        #expect(released != nil, "the sticky broadcast holds the last reference")

        switch release {
        case .replacedBySticky:
            world.broadcaster.broadcast(to: ReentryCarrier.self, with: DeinitAction(), sticky: true) { $0.carry($1) }
        case .replacedBySet:
            let calm = DeinitAction()
            world.broadcaster.setStickyBroadcast(for: ReentryCarrier.self) { $0.carry(calm) }
        case .cleared:
            world.broadcaster.clearStickyBroadcast(for: ReentryCarrier.self)
        case .clearedAll:
            world.broadcaster.clearAllStickyBroadcasts()
        }
        #expect(released == nil)
        world.verifyRound(after: call, stickyStateCleared: release == .clearedAll)
    }

    // fails on the 1.0 core: `Fatal error: Recursive call to lock Mutex`
    // (the replaced or cleared sticky event is released under the
    // broadcaster's lock). Its cases run one at a time, as above.
    @Test(.serialized, arguments: StickyRelease.allCases, ReentryCall.synchronous)
    func aStickyEventWhoseDeinitCallsBackIsReleasedOutsideTheLock(_ release: StickyRelease, _ call: ReentryCall)
        async
    {
        let world = ReentryWorld()
        var content: DeinitAction? = DeinitAction { world.perform(call) }
        weak let released = content
        world.broadcaster.post(ReentryParcel(content: content!), sticky: true)
        content = nil
        // The main actor settles the listeners that are not parcel listeners, whose calls held it too.
        #expect(await drained(world.broadcaster))
        #expect(released != nil, "the sticky event holds the last reference")

        switch release {
        case .replacedBySticky:
            world.broadcaster.post(ReentryParcel(content: DeinitAction()), sticky: true)
        case .replacedBySet:
            world.broadcaster.setStickyEvent(ReentryParcel(content: DeinitAction()))
        case .cleared:
            world.broadcaster.clearStickyEvent(for: ReentryParcel.self)
        case .clearedAll:
            world.broadcaster.clearAllStickyBroadcasts()
        }
        #expect(released == nil)
        world.verifyRound(after: call, stickyStateCleared: release == .clearedAll)
    }

    @Test(arguments: HandlerRelease.allCases, ReentryCall.synchronous)
    func aValueCapturedByAHandlerMayCallBackFromItsDeinit(_ release: HandlerRelease, _ call: ReentryCall) {
        let world = ReentryWorld()
        var captured: DeinitAction? = DeinitAction { world.perform(call) }
        weak let released = captured
        var token: BroadcastToken?
        var registrations: ListenerRegistrations?
        switch release {
        case .tokenCancelled, .tokenReleased:
            token = world.broadcaster.addHandler(for: ReentryKickEvent.self) { @Sendable [captured] _ in
                captured?.kick()
            }
        case .registrationsReleased:
            registrations = ListenerRegistrations(broadcaster: world.broadcaster)
            registrations?.addHandler(for: ReentryKickEvent.self) { @Sendable [captured] _ in
                captured?.kick()
            }
        }
        captured = nil
        #expect(world.broadcaster.post(ReentryKickEvent()) == 1)
        #expect(released != nil, "the handler holds the last reference")

        switch release {
        case .tokenCancelled: token?.cancel()
        case .tokenReleased: token = nil
        case .registrationsReleased: registrations = nil
        }
        #expect(released == nil)
        #expect(world.broadcaster.post(ReentryKickEvent()) == 0)
        world.verifyRound(after: call)
        withExtendedLifetime((token, registrations)) {}
    }

    @Test(arguments: ReentryCall.synchronous)
    func theOwnerOfAHandlerMayCallBackFromItsDeinit(_ call: ReentryCall) {
        let world = ReentryWorld()
        let log = world.log
        var owner: HandlerOwner? = HandlerOwner { world.perform(call) }
        weak let released = owner
        owner?.keep(
            world.broadcaster.addHandler(for: ReentryNote.self, owner: owner!) { @Sendable _, note in
                log.record("owned.note(\(note.text))")
            })
        world.broadcaster.post(ReentryNote(text: "before"))

        owner = nil
        #expect(released == nil)
        world.verifyRound(after: call)
        #expect(log.contains("owned.note(before)"))
        #expect(!log.contains("owned.note(after)"), "the handler went with its owner")
    }

    @Test(arguments: ReentryCall.synchronous)
    func theOwnerOfARegistrationMayCallBackFromItsDeinit(_ call: ReentryCall) {
        let world = ReentryWorld()
        let log = world.log
        var owner: RegisteredOwner? = RegisteredOwner(broadcaster: world.broadcaster, log: log) {
            world.perform(call)
        }
        weak let released = owner
        world.broadcaster.broadcast(to: ReentryPing.self) { $0.ping(1) }

        owner = nil
        #expect(released == nil)
        world.verifyRound(after: call)
        #expect(log.contains("owned.ping(1)"))
        #expect(!log.contains("owned.ping(200)"), "the registration went with its owner")
    }

    // MARK: - More places user code runs

    @Test(arguments: ReentryCall.allCases)
    func anEventStreamConsumerMayCallBackIntoTheBroadcaster(_ call: ReentryCall) async {
        let world = ReentryWorld()
        let events = world.broadcaster.events(of: ReentryKickEvent.self)

        #expect(world.broadcaster.post(ReentryKickEvent()) == 1)
        await world.addMainActorSpy()
        let consumed = await finishing {
            for await _ in events {
                await world.performAwaiting(call)
                return true
            }
            return false
        }
        #expect(consumed == true)
        world.verifyRound(after: call)
    }

    // fails on a core that releases a replaced main-actor sticky broadcast
    // under its lock: `Recursive call to lock`.
    @Test(.serialized, arguments: MainActorStickyKeeping.allCases, ReentryCall.synchronous)
    func aMainActorStickyPayloadWhoseDeinitCallsBackIsReleasedOutsideTheLock(
        _ keeping: MainActorStickyKeeping, _ call: ReentryCall
    ) async {
        let world = ReentryWorld()
        var payload: DeinitAction? = DeinitAction { world.perform(call) }
        weak let released = payload
        switch keeping {
        case .broadcastOnMainActor:
            world.broadcaster.broadcastOnMainActor(to: ReentryMainCarrier.self, with: payload!, sticky: true) {
                $0.carry($1)
            }
        case .setStickyBroadcastOnMainActor:
            let kept = payload!
            world.broadcaster.setStickyBroadcastOnMainActor(for: ReentryMainCarrier.self) { $0.carry(kept) }
        }
        payload = nil
        // The main actor settles the listeners that are not carriers, whose calls held the payload too.
        #expect(await drained(world.broadcaster))
        #expect(released != nil, "the sticky broadcast holds the last reference")

        world.broadcaster.clearStickyBroadcast(for: ReentryMainCarrier.self)
        #expect(released == nil)
        world.verifyRound(after: call)
    }

    @Test(arguments: MailboxDelivery.allCases, ReentryCall.synchronous)
    func aPayloadHeldByADeliveryWaitingInAMailboxMayCallBackFromItsDeinit(
        _ delivery: MailboxDelivery, _ call: ReentryCall
    ) async {
        let world = ReentryWorld()
        let spy = await Self.registerMainCarrier(in: world)
        let (gone, signal) = AsyncStream.makeStream(of: Void.self)
        var payload: DeinitAction? = DeinitAction {
            world.perform(call)
            signal.yield()
        }
        switch delivery {
        case .broadcast:
            // From here (no actor): the call, with the payload, waits in the main actor's mailbox.
            #expect(world.broadcaster.broadcast(to: ReentryMainCarrier.self, with: payload!) { $0.carry($1) } == 1)
        case .broadcastOnMainActor:
            #expect(
                world.broadcaster.broadcastOnMainActor(to: ReentryMainCarrier.self, with: payload!) { $0.carry($1) }
                    == 1)
        }
        payload = nil

        await world.broadcaster.waitForScheduledDeliveries()
        #expect(await finishing { await first(1, of: gone).count } == 1, "the mailbox let go of the payload")
        #expect(await spy.carried == 1)
        world.verifyRound(after: call)
    }

    // fails on a core whose index lets go of its old members under the lock,
    // when it is rebuilt or filtered: `Recursive call to lock` (the actor's
    // deinit calls back).
    @Test(.serialized, arguments: IndexRelease.allCases, ReentryCall.synchronous)
    func theActorAListenerRegisteredFromMayCallBackWhenAnIndexLetsGoOfIt(
        _ release: IndexRelease, _ call: ReentryCall
    ) async {
        let world = ReentryWorld()
        let others = (0..<release.otherListeners).map { _ in Kicker {} }
        for other in others { world.broadcaster.addListener(other) }
        let kicker = Kicker {}
        var registrar: ReentryRegistrar? = ReentryRegistrar { world.perform(call) }
        weak let released = registrar
        await registrar!.register(kicker, on: world.broadcaster)
        #expect(world.broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == others.count + 1)
        // The index listed the world's other listeners until the main actor
        // settled them (not kickers); rebuilt, it lists the kickers only.
        await world.broadcaster.waitForScheduledDeliveries()
        #expect(world.broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == others.count + 1)

        // The table lets go of the entry; the index still lists it (too few
        // removals to filter it), and the entry holds the actor.
        world.broadcaster.removeListener(kicker)
        registrar = nil
        #expect(released != nil, "the index holds the last reference")

        var registration: ListenerRegistration?
        switch release {
        case .rebuild:
            // A second entry of a listed object changes the table's layout:
            // the next broadcast rebuilds the index.
            registration = ListenerRegistration(others[0], for: ReentryKick.self, on: world.broadcaster)
            registration?.start()
            #expect(world.broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == others.count)
        case .filter:
            // Half of the members are now removed: the index filters them.
            world.broadcaster.removeListener(others[0])
        }
        #expect(released == nil)
        world.verifyRound(after: call)
        withExtendedLifetime((others, kicker, registration)) {}
    }

    @MainActor private static func registerMainCarrier(in world: ReentryWorld) -> MainCarrierSpy {
        let spy = MainCarrierSpy()
        world.broadcaster.addListener(spy)
        return spy
    }

    // MARK: - Named cases

    // fails on the 1.0 core: `Fatal error: Recursive call to lock Mutex`.
    @Test func aStickyPayloadWhoseDeinitPostsIsReleasedOutsideTheLock() {
        let broadcaster = Broadcaster()
        let notes = Recorder<String>()
        let token = broadcaster.addHandler(for: ReentryNote.self) { @Sendable in notes.append($0.text) }
        broadcaster.broadcast(
            to: ReentryCarrier.self, with: DeinitAction { broadcaster.post(ReentryNote(text: "payload gone")) },
            sticky: true
        ) { $0.carry($1) }
        #expect(notes.all.isEmpty)

        broadcaster.broadcast(to: ReentryCarrier.self, with: DeinitAction(), sticky: true) { $0.carry($1) }
        #expect(notes.all == ["payload gone"])
        withExtendedLifetime(token) {}
    }

    @Test func aListenerMayUnregisterItselfAndBroadcastFromItsDeinit() {
        let broadcaster = Broadcaster()
        let log = ReentryLog()
        let observer = ReentrySpy("observer", log: log)
        broadcaster.addListener(observer)
        var listener: SelfRemovingListener? = SelfRemovingListener(broadcaster: broadcaster, log: log)
        broadcaster.addListener(listener!)
        #expect(broadcaster.registrationCount == 2)
        #expect(broadcaster.broadcast(to: ReentryPing.self) { $0.ping(1) } == 2)

        listener = nil
        #expect(broadcaster.registrationCount == 1)
        #expect(broadcaster.broadcast(to: ReentryPing.self) { $0.ping(2) } == 1)
        #expect(log.all == ["observer.ping(1)", "self-remover.ping(1)", "observer.ping(3)", "observer.ping(2)"])
    }
}

/// A listener that unregisters itself and broadcasts from its deinit.
final class SelfRemovingListener: ReentryPing, Sendable {
    private let broadcaster: Broadcaster
    private let log: ReentryLog

    init(broadcaster: Broadcaster, log: ReentryLog) {
        self.broadcaster = broadcaster
        self.log = log
    }

    func ping(_ n: Int) { log.record("self-remover.ping(\(n))") }

    deinit {
        broadcaster.removeListener(self)
        broadcaster.broadcast(to: ReentryPing.self) { $0.ping(3) }
    }
}

/// Holds an object until ``release()``, which drops it outside its lock.
final class ReentryHolder<Value: AnyObject & Sendable>: Sendable {
    private let content: Locked<Value?>

    init(_ value: Value) { content = Locked(value) }

    var value: Value? { content.withLock { $0 } }

    func release() {
        let value = content.withLock { content in
            defer { content = nil }
            return content
        }
        _ = consume value
    }
}
