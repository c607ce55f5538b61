import BroadcastTesting
import Testing

@testable import Broadcast

#if DEBUG
    /// `ObservableStickyEvent`'s two promises of atomicity, each with a change
    /// forced into every gap between its lock trips.
    ///
    /// The change is made on another thread, in every gap between the lock
    /// trips of its creation or of an update: it "registers first, then
    /// reads the state", and "reads the state and the generation under one
    /// lock". Either split leaves it showing a state that is not the last, in
    /// every run.
    @Suite("ObservableStickyEvent reads atomically, whatever runs between its lock trips", .timeLimit(.minutes(1)))
    @MainActor struct ObservableAtomicityTests {
        struct Session: Sendable, Equatable { let user: Int }

        final class Subject {
            let broadcaster: Broadcaster
            var observed: ObservableStickyEvent<Session>?

            init(_ broadcaster: Broadcaster) { self.broadcaster = broadcaster }
        }

        static func fresh(observing: Bool) -> (Broadcaster, Subject) {
            let broadcaster = Broadcaster()
            broadcaster.post(Session(user: 1), sticky: true)
            let subject = Subject(broadcaster)
            if observing { subject.observed = ObservableStickyEvent(for: Session.self, on: broadcaster) }
            return (broadcaster, subject)
        }

        /// A change made off the main actor: its update is scheduled there.
        static func change(_ broadcaster: Broadcaster, to user: Int?) {
            Interleavings.onAnotherThread {
                if let user {
                    broadcaster.post(Session(user: user), sticky: true)
                } else {
                    broadcaster.clearStickyEvent(for: Session.self)
                }
            }
        }

        /// After the scheduled updates, the value shown is the last state.
        static func expectLastState(_ subject: Subject, _ expected: Session?, _ gap: Interleavings.Gap) {
            #expect(subject.observed?.value == expected, "\(gap)")
        }

        // MARK: - It registers first, then reads the state

        @Test func aValueCreatedWhileAStateIsPostedShowsIt() async {
            let gaps = await Interleavings.forEachGap {
                Self.fresh(observing: false)
            } operation: { subject in
                subject.observed = ObservableStickyEvent(for: Session.self, on: subject.broadcaster)
            } competitor: { subject in
                Self.change(subject.broadcaster, to: 2)
            } check: { subject, gap in
                Self.expectLastState(subject, Session(user: 2), gap)
            }
            #expect(gaps.count >= 2)
        }

        @Test func aValueCreatedWhileTheStateIsClearedShowsNil() async {
            await Interleavings.forEachGap {
                Self.fresh(observing: false)
            } operation: { subject in
                subject.observed = ObservableStickyEvent(for: Session.self, on: subject.broadcaster)
            } competitor: { subject in
                Self.change(subject.broadcaster, to: nil)
            } check: { subject, gap in
                Self.expectLastState(subject, nil, gap)
            }
        }

        // MARK: - It reads the state and the generation under one lock

        @Test func anUpdateDuringWhichAStateIsPostedEndsOnIt() async {
            await Interleavings.forEachGap {
                Self.fresh(observing: true)
            } operation: { subject in
                subject.broadcaster.post(Session(user: 2), sticky: true)
            } competitor: { subject in
                Self.change(subject.broadcaster, to: 3)
            } check: { subject, gap in
                Self.expectLastState(subject, Session(user: 3), gap)
            }
        }

        @Test func anUpdateDuringWhichTheStateIsClearedEndsOnNil() async {
            await Interleavings.forEachGap {
                Self.fresh(observing: true)
            } operation: { subject in
                subject.broadcaster.post(Session(user: 2), sticky: true)
            } competitor: { subject in
                Self.change(subject.broadcaster, to: nil)
            } check: { subject, gap in
                Self.expectLastState(subject, nil, gap)
            }
        }
    }
#endif
