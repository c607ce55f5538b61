import Foundation

@testable import Broadcast

#if DEBUG
    /// Forces a competing operation into every gap between the lock trips of
    /// another, through the storage's debug seam
    /// (``StorageLock/callAfterEachTrip(_:)``): where an atomic operation was
    /// split into two trips, one of these runs puts the competitor between
    /// them, in every run, with no race to win.
    enum Interleavings {
        /// Where the competitor ran: after the operation's `trip`-th lock
        /// trip (named `section`), or after the operation returned.
        struct Gap: CustomStringConvertible {
            let trip: Int?
            let section: String

            var description: String {
                guard let trip else { return "the competitor run after the operation" }
                return "the competitor run after trip \(trip) (\(section))"
            }
        }

        /// Runs `operation` once per gap between its lock trips, with
        /// `competitor` in that gap.
        ///
        /// For n = 1, 2, …: makes a fresh subject, runs `operation` on it with
        /// `competitor` run after the operation's n-th lock trip (on the
        /// thread that made it, once the lock is released), then, once the
        /// calls they scheduled have run, `check`s it. Once an operation makes
        /// fewer than n trips, the competitor runs after it returns, a last
        /// gap. Returns the gaps forced.
        @discardableResult
        static func forEachGap<Subject>(
            isolation: isolated (any Actor)? = #isolation,
            make: () -> (Broadcaster, Subject),
            operation: (Subject) -> Void,
            competitor: @escaping (Subject) -> Void,
            check: (Subject, Gap) -> Void
        ) async -> [Gap] {
            var gaps: [Gap] = []
            for target in 1...64 {
                let (broadcaster, subject) = make()
                let counter = TripCounter(target: target) { competitor(subject) }
                broadcaster.storage.callAfterEachTrip { counter.tripEnded($0) }
                counter.arm()
                operation(subject)
                let ran = counter.disarm()
                broadcaster.storage.callAfterEachTrip(nil)
                let gap = Gap(trip: ran.map { _ in target }, section: ran ?? "")
                if ran == nil { competitor(subject) }
                await broadcaster.waitForScheduledDeliveries()
                check(subject, gap)
                gaps.append(gap)
                if ran == nil { return gaps }
            }
            fatalError("an operation of more than 64 lock trips")
        }

        /// Runs `body` on a thread of its own and waits for it, for up to 10 s:
        /// a competitor made off the caller's actor, whose calls to that actor
        /// are scheduled rather than made at once.
        static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                body()
                done.signal()
            }
            thread.start()
            precondition(done.wait(timeout: .now() + 10) == .success, "the competitor did not return within 10 s")
        }
    }

    /// Counts the operation's lock trips on the thread that runs it, and runs
    /// the competitor once, after the target-th.
    private final class TripCounter: @unchecked Sendable {
        // @unchecked Sendable: its state is read and written only on the
        // thread that created it (`tripEnded` returns at once on any other),
        // and only while the operation runs there.
        private let thread = Thread.current
        private let target: Int
        private var competitor: (() -> Void)?
        private var armed = false
        private var trips = 0
        private var ranAfter: String?

        init(target: Int, competitor: @escaping () -> Void) {
            self.target = target
            self.competitor = competitor
        }

        func arm() { armed = true }

        /// Stops counting; returns the name of the trip the competitor ran
        /// after, nil if it did not run.
        func disarm() -> String? {
            armed = false
            competitor = nil
            return ranAfter
        }

        func tripEnded(_ section: StaticString) {
            guard Thread.current === thread, armed, let competitor else { return }
            trips += 1
            guard trips == target else { return }
            // Its own trips are not the operation's.
            self.competitor = nil
            ranAfter = "\(section)"
            competitor()
        }
    }
#endif
