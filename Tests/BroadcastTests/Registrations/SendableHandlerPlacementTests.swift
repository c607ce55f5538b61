import Broadcast
import Foundation
import Testing

/// A `@Sendable` handler declared in a ``ListenerRegistrations`` runs where
/// each post runs, whatever actor starts its registration and whatever its
/// lifespan: it is not bound to the starting actor, as a listener registered
/// there would be.
///
/// Each post is made on a thread or actor other than the one that started
/// the registration, and reads at its return where the handler ran: a
/// handler scheduled on the starting actor has run elsewhere, or not yet.
@Suite("A @Sendable registered handler runs where the post runs", .timeLimit(.minutes(1)))
struct SendableHandlerPlacementTests {
    /// An event with a number, to tell the posts apart.
    struct Tick: Sendable, Equatable {
        let number: Int
    }

    /// A handler's call: the tick, and the thread it ran on.
    struct Call: Sendable, Equatable, CustomStringConvertible {
        let number: Int
        let thread: UInt

        var description: String { "\(number)@\(thread)" }
    }

    /// What a post saw: the thread it ran on, and the calls made by its return.
    struct Outcome: Sendable {
        let thread: UInt
        let callsAtReturn: [Call]
    }

    /// The actor a registration is started on.
    enum Starter: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case mainActor
        case customActor

        var testDescription: String { rawValue }
    }

    /// The handler's form.
    enum Form: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case plain
        case withOwner

        var testDescription: String { rawValue }
    }

    /// An actor of the tests' own that declares and starts registrations,
    /// and posts.
    actor Place {
        func declare(
            _ form: Form, in registrations: ListenerRegistrations, lifespan: Lifespan, owner: Owner,
            log: Locked<[Call]>
        ) {
            SendableHandlerPlacementTests.declare(form, in: registrations, lifespan: lifespan, owner: owner, log: log)
        }

        func start(_ lifespan: Lifespan, of registrations: ListenerRegistrations) {
            registrations.start(lifespan)
        }

        func restart(_ lifespan: Lifespan, of registrations: ListenerRegistrations) {
            registrations.stop(lifespan)
            registrations.start(lifespan)
        }

        func post(_ number: Int, with broadcaster: Broadcaster, log: Locked<[Call]>) -> Outcome {
            SendableHandlerPlacementTests.post(number, with: broadcaster, log: log)
        }
    }

    /// The owner the owner form is declared with.
    final class Owner: Sendable {}

    static let lifespans: [Lifespan] = [.lifetime, .visible, .custom("editing")]

    /// Declares the handler; it records each call with its thread.
    static func declare(
        _ form: Form, in registrations: ListenerRegistrations, lifespan: Lifespan, owner: Owner, log: Locked<[Call]>
    ) {
        switch form {
        case .plain:
            registrations.addHandler(for: Tick.self, lifespan: lifespan) { tick in
                log.withLock { $0.append(Call(number: tick.number, thread: currentThreadID())) }
            }
        case .withOwner:
            registrations.addHandler(for: Tick.self, owner: owner, lifespan: lifespan) { _, tick in
                log.withLock { $0.append(Call(number: tick.number, thread: currentThreadID())) }
            }
        }
    }

    /// Posts `number` where the caller runs; returns that thread and the
    /// calls made by the post's return.
    static func post(_ number: Int, with broadcaster: Broadcaster, log: Locked<[Call]>) -> Outcome {
        let thread = currentThreadID()
        broadcaster.post(Tick(number: number))
        return Outcome(thread: thread, callsAtReturn: log.withLock { $0 })
    }

    @MainActor static func declareOnMainActor(
        _ form: Form, in registrations: ListenerRegistrations, lifespan: Lifespan, owner: Owner, log: Locked<[Call]>
    ) {
        declare(form, in: registrations, lifespan: lifespan, owner: owner, log: log)
    }

    @MainActor static func startOnMainActor(_ lifespan: Lifespan, of registrations: ListenerRegistrations) {
        registrations.start(lifespan)
    }

    @MainActor static func restartOnMainActor(_ lifespan: Lifespan, of registrations: ListenerRegistrations) {
        registrations.stop(lifespan)
        registrations.start(lifespan)
    }

    /// Expects `outcome`'s post to have called the handler once more, with
    /// `number`, on the posting thread, before it returned.
    static func expectCalledWherePosted(
        _ outcome: Outcome, number: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            outcome.callsAtReturn.last == Call(number: number, thread: outcome.thread),
            "post \(number) from thread \(outcome.thread) saw \(outcome.callsAtReturn) at its return",
            sourceLocation: sourceLocation)
        #expect(outcome.callsAtReturn.count == number, sourceLocation: sourceLocation)
    }

    @Test(arguments: Self.lifespans, Starter.allCases)
    func startedOnAnActorItRunsWhereEachPostRuns(lifespan: Lifespan, starter: Starter) async {
        for form in Form.allCases {
            await check(form, lifespan: lifespan, startedOn: starter)
        }
    }

    /// Starts the handler on `starter`, posts from a new thread and from
    /// another actor; restarts it there, and posts again.
    func check(_ form: Form, lifespan: Lifespan, startedOn starter: Starter) async {
        let broadcaster = Broadcaster()
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        let log = Locked<[Call]>([])
        let owner = Owner()
        let starterActor = Place()
        let poster = Place()

        switch starter {
        case .mainActor:
            await Self.declareOnMainActor(form, in: registrations, lifespan: lifespan, owner: owner, log: log)
            if lifespan != .lifetime { await Self.startOnMainActor(lifespan, of: registrations) }
        case .customActor:
            await starterActor.declare(form, in: registrations, lifespan: lifespan, owner: owner, log: log)
            if lifespan != .lifetime { await starterActor.start(lifespan, of: registrations) }
        }
        let fromThread = await onNewThread { Self.post(1, with: broadcaster, log: log) }
        let fromActor = await poster.post(2, with: broadcaster, log: log)

        // Started again on the same actor: a lifetime registration, started
        // when declared, now starts there too.
        switch starter {
        case .mainActor: await Self.restartOnMainActor(lifespan, of: registrations)
        case .customActor: await starterActor.restart(lifespan, of: registrations)
        }
        let fromThreadAfterRestart = await onNewThread { Self.post(3, with: broadcaster, log: log) }
        let fromActorAfterRestart = await poster.post(4, with: broadcaster, log: log)

        Self.expectCalledWherePosted(fromThread, number: 1)
        Self.expectCalledWherePosted(fromActor, number: 2)
        Self.expectCalledWherePosted(fromThreadAfterRestart, number: 3)
        Self.expectCalledWherePosted(fromActorAfterRestart, number: 4)
        withExtendedLifetime((registrations, owner)) {}
    }

    @Test(arguments: Form.allCases)
    func aRegistrationStartedOnItsOwnOnTheMainActorRunsOnAPostingThread(form: Form) async {
        let broadcaster = Broadcaster()
        let log = Locked<[Call]>([])
        let owner = Owner()
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        let registration = await MainActor.run {
            Self.declare(form, in: registrations, lifespan: .visible, owner: owner, log: log)
            let registration = registrations.registrations(of: .visible)[0]
            registration.start()  // the registration's own start, on the main actor
            return registration
        }

        let outcome = await onNewThread { Self.post(1, with: broadcaster, log: log) }

        Self.expectCalledWherePosted(outcome, number: 1)
        #expect(registration.isListening)
        withExtendedLifetime((registrations, owner)) {}
    }
}
