import Foundation
import Testing

@testable import Broadcast

#if DEBUG
    /// The main actor's cast holds the listener it casts.
    ///
    /// A listener registered with no actor, off the main actor, after a
    /// broadcast to a protocol its cast there fails for, is cast by the main
    /// actor. Its owner's release during the cast completes as the cast
    /// ends, on the main actor, before `waitForScheduledDeliveries()`
    /// returns; after that wait, nothing the broadcaster scheduled holds it.
    ///
    /// The cast is held where it holds the listener, through the debug seam
    /// ``MainActorCasts/callWhileHoldingAListener(_:)``: the release races
    /// nothing.
    @Suite("The main actor's cast of a listener registered with no actor", .timeLimit(.minutes(1)))
    struct MainActorCastHoldTests {
        @Test func anOwnersReleaseDuringTheCastCompletesAsItEndsBeforeTheWaitReturns() async throws {
            let broadcaster = Broadcaster()
            broadcaster.broadcast(to: ReentryMark.self) { $0.mark(0) }
            let cast = HeldCast()
            broadcaster.mainActorCasts.callWhileHoldingAListener { cast.holdUntilGo() }
            let deinitThread = Locked<UInt?>(nil)
            let owner = ReentryHolder(DeinitAction { deinitThread.withLock { $0 = currentThreadID() } })
            weak let released = owner.value
            _ = await onNewThread { broadcaster.addListener(owner.value!) }  // no actor
            // Other tests hold the main actor (`MainActorHold`) while they
            // run: the flood of `MainActorFloodTests` held it 25 s under the
            // address sanitizer, and this cast waited behind it. The deadline
            // outlasts that, and stays within the suite's time limit.
            let castThread = try #require(
                await onNewThread { cast.waitUntilHeld(within: 45) }, "the main actor's cast reached the seam")

            owner.release()
            #expect(released != nil, "the main actor's cast holds it")
            let wait = await onNewThread { WaitProbe.start { await broadcaster.waitForScheduledDeliveries() } }
            #expect(!wait.returned, "the wait returns only once the cast has ended")

            cast.go()
            await wait.task.value
            #expect(wait.returned)
            #expect(released == nil)
            #expect(deinitThread.withLock { $0 } == castThread, "released as the cast ended")
            broadcaster.mainActorCasts.callWhileHoldingAListener(nil)
        }
    }

    /// The first cast to reach the seam, held there until the test lets it go.
    final class HeldCast: Sendable {
        private let held = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)
        private let thread = Locked<UInt?>(nil)

        /// Called by the cast: blocks the first one until ``go()``.
        func holdUntilGo() {
            let isFirst = thread.withLock { thread in
                defer { thread = thread ?? currentThreadID() }
                return thread == nil
            }
            guard isFirst else { return }
            held.signal()
            released.wait()
        }

        /// The thread of the cast, once it is held; nil if no cast is held
        /// within `seconds`, so that a cast never made fails the test then.
        func waitUntilHeld(within seconds: Int) -> UInt? {
            guard held.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
            return thread.withLock { $0 }
        }

        func go() { released.signal() }
    }

    /// An `async` call started on a plain thread, run there up to its first
    /// suspension: `returned` tells, with no race, whether it returned
    /// without waiting.
    final class WaitProbe: Sendable {
        private let done = Locked(false)
        private let started = Locked<Task<Void, Never>?>(nil)

        var returned: Bool { done.withLock { $0 } }
        var task: Task<Void, Never> { started.withLock { $0! } }

        static func start(_ call: @escaping @Sendable () async -> Void) -> WaitProbe {
            let probe = WaitProbe()
            let task = Task(executorPreference: InlineExecutor()) {
                await call()
                probe.done.withLock { $0 = true }
            }
            probe.started.withLock { $0 = task }
            return probe
        }
    }

    /// Runs each job at once, on the thread that enqueues it.
    final class InlineExecutor: TaskExecutor {
        func enqueue(_ job: consuming ExecutorJob) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
#endif
