import BroadcastTesting
import Testing

@testable import Broadcast

#if DEBUG
    /// A listener protocol for the sticky broadcasts of these tests.
    protocol AtomicityCountListener: AnyObject {
        func count(_ value: Int)
    }

    /// Each promise the documentation makes of a sticky operation's atomicity,
    /// with a competing operation forced into every gap between its lock
    /// trips (`Interleavings`): split into two trips, the operation fails
    /// here in every run.
    @Suite("Sticky operations are atomic, whatever runs between their lock trips", .timeLimit(.minutes(1)))
    struct StickyAtomicityTests {
        struct Link: Sendable, Equatable { let path: Int }

        final class CountSpy: AtomicityCountListener, Sendable {
            let values = Locked<[Int]>([])
            func count(_ value: Int) { values.withLock { $0.append(value) } }
        }

        /// What a test holds while it runs: tokens, spies, what the
        /// operations returned.
        final class Subject {
            let broadcaster: Broadcaster
            let spy = CountSpy()
            let calls = Locked<[Link]>([])
            var token: BroadcastToken?
            let laterCalls = Locked<[Link]>([])
            var laterToken: BroadcastToken?
            var results: [Link?] = []
            var cleared: Bool?
            var state: StickyEventState<Link>?
            var keptWhenCancelled: Link?

            init(_ broadcaster: Broadcaster) { self.broadcaster = broadcaster }

            var kept: Link? { broadcaster.stickyEventState(for: Link.self)?.value }

            func addHandler(consuming: Bool = false, receivingSticky: Bool = false) {
                token = broadcaster.addHandler(
                    for: Link.self, receivingSticky: receivingSticky, consumingSticky: consuming
                ) { [calls] link in calls.withLock { $0.append(link) } }
            }
        }

        static func fresh(_ prepare: (Subject) -> Void = { _ in }) -> (Broadcaster, Subject) {
            let broadcaster = Broadcaster()
            let subject = Subject(broadcaster)
            prepare(subject)
            return (broadcaster, subject)
        }

        // MARK: - Made before, it is replayed; made after, delivered live

        @Test func aListenerRegisteringBetweenTheTripsOfAStickyBroadcastGetsItExactlyOnce() async {
            let gaps = await Interleavings.forEachGap {
                Self.fresh()
            } operation: { subject in
                subject.broadcaster.broadcast(to: (any AtomicityCountListener).self, sticky: true) { $0.count(1) }
            } competitor: { subject in
                _ = subject.broadcaster.addListener(subject.spy, receivingSticky: true)
            } check: { subject, gap in
                #expect(subject.spy.values.withLock { $0 } == [1], "\(gap)")
            }
            #expect(gaps.count >= 2)
        }

        @Test func aStickyBroadcastMadeBetweenTheTripsOfARegistrationReachesItExactlyOnce() async {
            let gaps = await Interleavings.forEachGap {
                Self.fresh()
            } operation: { subject in
                _ = subject.broadcaster.addListener(subject.spy, receivingSticky: true)
            } competitor: { subject in
                subject.broadcaster.broadcast(to: (any AtomicityCountListener).self, sticky: true) { $0.count(1) }
            } check: { subject, gap in
                #expect(subject.spy.values.withLock { $0 } == [1], "\(gap)")
            }
            #expect(gaps.count >= 2)
        }

        @Test func aHandlerRegisteringBetweenTheTripsOfAStickyPostGetsItExactlyOnce() async {
            await Interleavings.forEachGap {
                Self.fresh()
            } operation: { subject in
                subject.broadcaster.post(Link(path: 1), sticky: true)
            } competitor: { subject in
                subject.addHandler(receivingSticky: true)
            } check: { subject, gap in
                #expect(subject.calls.withLock { $0 } == [Link(path: 1)], "\(gap)")
            }
        }

        @Test func aStickyPostMadeBetweenTheTripsOfAHandlersRegistrationReachesItExactlyOnce() async {
            await Interleavings.forEachGap {
                Self.fresh()
            } operation: { subject in
                subject.addHandler(receivingSticky: true)
            } competitor: { subject in
                subject.broadcaster.post(Link(path: 1), sticky: true)
            } check: { subject, gap in
                #expect(subject.calls.withLock { $0 } == [Link(path: 1)], "\(gap)")
            }
        }

        // MARK: - Of callers racing, exactly one gets it

        @Test func ofATakeAndATakeBetweenItsTripsExactlyOneGetsTheState() async {
            await Interleavings.forEachGap {
                Self.fresh { $0.broadcaster.post(Link(path: 1), sticky: true) }
            } operation: { subject in
                subject.results.append(subject.broadcaster.takeStickyEvent(for: Link.self))
            } competitor: { subject in
                subject.results.append(subject.broadcaster.takeStickyEvent(for: Link.self))
            } check: { subject, gap in
                #expect(subject.results.compactMap { $0 } == [Link(path: 1)], "\(gap)")
                #expect(subject.kept == nil, "\(gap)")
            }
        }

        @Test func aTakeNeverClearsAStatePostedBetweenItsTrips() async {
            await Interleavings.forEachGap {
                Self.fresh { $0.broadcaster.post(Link(path: 1), sticky: true) }
            } operation: { subject in
                subject.results.append(subject.broadcaster.takeStickyEvent(for: Link.self))
            } competitor: { subject in
                subject.broadcaster.post(Link(path: 2), sticky: true)
            } check: { subject, gap in
                #expect(subject.results == [Link(path: 1)], "\(gap)")
                #expect(subject.kept == Link(path: 2), "\(gap)")
            }
        }

        @Test func aConditionalClearNeverClearsAStatePostedBetweenItsTrips() async {
            await Interleavings.forEachGap {
                Self.fresh { subject in
                    subject.broadcaster.post(Link(path: 1), sticky: true)
                    subject.state = subject.broadcaster.stickyEventState(for: Link.self)
                }
            } operation: { subject in
                if let state = subject.state { subject.cleared = subject.broadcaster.clearStickyEvent(ifStill: state) }
            } competitor: { subject in
                subject.broadcaster.post(Link(path: 2), sticky: true)
            } check: { subject, gap in
                #expect(subject.cleared == true, "\(gap)")
                #expect(subject.kept == Link(path: 2), "\(gap)")
            }
        }

        @Test func clearingEveryStickyBroadcastNeverClearsAStatePostedBetweenItsTrips() async {
            await Interleavings.forEachGap {
                Self.fresh { subject in
                    subject.broadcaster.post(Link(path: 1), sticky: true)
                    subject.broadcaster.broadcast(to: (any AtomicityCountListener).self, sticky: true) { $0.count(1) }
                }
            } operation: { subject in
                subject.broadcaster.clearAllStickyBroadcasts()
            } competitor: { subject in
                subject.broadcaster.post(Link(path: 2), sticky: true)
            } check: { subject, gap in
                #expect(subject.kept == Link(path: 2), "\(gap)")
                #expect(!subject.broadcaster.hasStickyBroadcast(for: (any AtomicityCountListener).self), "\(gap)")
            }
        }

        @Test func clearingEveryStickyBroadcastNeverClearsABroadcastMadeBetweenItsTrips() async {
            await Interleavings.forEachGap {
                Self.fresh { subject in
                    subject.broadcaster.post(Link(path: 1), sticky: true)
                    subject.broadcaster.broadcast(to: (any AtomicityCountListener).self, sticky: true) { $0.count(1) }
                }
            } operation: { subject in
                subject.broadcaster.clearAllStickyBroadcasts()
            } competitor: { subject in
                subject.broadcaster.broadcast(to: (any AtomicityCountListener).self, sticky: true) { $0.count(2) }
            } check: { subject, gap in
                #expect(subject.broadcaster.hasStickyBroadcast(for: (any AtomicityCountListener).self), "\(gap)")
                #expect(subject.kept == nil, "\(gap)")
            }
        }

        // MARK: - Consumed when the handler runs: the check and the take are one critical section

        @Test func aConsumingCallNeverTakesAStateSetBetweenItsTrips() async {
            await Interleavings.forEachGap {
                Self.fresh { $0.addHandler(consuming: true) }
            } operation: { subject in
                subject.broadcaster.post(Link(path: 1), sticky: true)
            } competitor: { subject in
                subject.broadcaster.setStickyEvent(Link(path: 2))
            } check: { subject, gap in
                #expect(subject.kept == Link(path: 2), "\(gap)")
                #expect(subject.calls.withLock { $0 }.allSatisfy { $0 == Link(path: 1) }, "\(gap)")
            }
        }

        @Test func aConsumerRegisteringNeverTakesAStateSetBetweenTheTripsOfItsReplay() async {
            await Interleavings.forEachGap {
                Self.fresh { $0.broadcaster.post(Link(path: 1), sticky: true) }
            } operation: { subject in
                subject.addHandler(consuming: true, receivingSticky: true)
            } competitor: { subject in
                subject.broadcaster.setStickyEvent(Link(path: 2))
            } check: { subject, gap in
                #expect(subject.kept == Link(path: 2), "\(gap)")
                #expect(subject.calls.withLock { $0 }.allSatisfy { $0 == Link(path: 1) }, "\(gap)")
            }
        }

        @Test func aStateLeftByAConsumerCancelledBetweenTheTripsOfItsCallGoesToTheNext() async {
            await Interleavings.forEachGap {
                Self.fresh { subject in
                    subject.addHandler(consuming: true)
                    subject.laterToken = subject.broadcaster.addHandler(for: Link.self, consumingSticky: true) {
                        [laterCalls = subject.laterCalls] link in laterCalls.withLock { $0.append(link) }
                    }
                }
            } operation: { subject in
                subject.broadcaster.post(Link(path: 1), sticky: true)
            } competitor: { subject in
                subject.token?.cancel()
            } check: { subject, gap in
                let calls = subject.calls.withLock { $0 } + subject.laterCalls.withLock { $0 }
                #expect(calls == [Link(path: 1)], "\(gap)")
                #expect(subject.kept == nil, "\(gap)")
            }
        }

        @Test func aConsumerCancelledBetweenTheTripsOfItsCallTakesTheStateOnlyIfItsCallRuns() async {
            let gaps = await Interleavings.forEachGap {
                Self.fresh { $0.addHandler(consuming: true) }
            } operation: { subject in
                subject.broadcaster.post(Link(path: 1), sticky: true)
            } competitor: { subject in
                subject.token?.cancel()
            } check: { subject, gap in
                let called = subject.calls.withLock { $0 } == [Link(path: 1)]
                #expect(called == (subject.kept == nil), "\(gap)")
            }
            // Cancelled before the take, and after it: both outcomes are forced.
            #expect(gaps.count >= 3)
        }

        /// The take reads whether its entry is still registered in the trip
        /// that clears the state: a consumer cancelled while the state is
        /// still kept never takes it, and the next consumer does.
        @Test func aConsumerCancelledWhileTheStateIsKeptNeverTakesIt() async {
            await Interleavings.forEachGap {
                Self.fresh { subject in
                    subject.addHandler(consuming: true)
                    subject.laterToken = subject.broadcaster.addHandler(for: Link.self, consumingSticky: true) {
                        [laterCalls = subject.laterCalls] link in laterCalls.withLock { $0.append(link) }
                    }
                }
            } operation: { subject in
                subject.broadcaster.post(Link(path: 1), sticky: true)
            } competitor: { subject in
                subject.keptWhenCancelled = subject.kept
                subject.token?.cancel()
            } check: { subject, gap in
                if subject.keptWhenCancelled != nil {
                    #expect(subject.calls.withLock { $0 }.isEmpty, "\(gap)")
                    #expect(subject.laterCalls.withLock { $0 } == [Link(path: 1)], "\(gap)")
                }
            }
        }

        /// With no other consumer, the state a cancelled consumer did not
        /// take stays kept, for a consumer registering later.
        @Test func aStateKeptWhenItsOnlyConsumerIsCancelledStaysKept() async {
            await Interleavings.forEachGap {
                Self.fresh { $0.addHandler(consuming: true) }
            } operation: { subject in
                subject.broadcaster.post(Link(path: 1), sticky: true)
            } competitor: { subject in
                subject.keptWhenCancelled = subject.kept
                subject.token?.cancel()
            } check: { subject, gap in
                guard subject.keptWhenCancelled != nil else { return }
                #expect(subject.kept == Link(path: 1), "\(gap)")
            }
        }
    }
#endif
