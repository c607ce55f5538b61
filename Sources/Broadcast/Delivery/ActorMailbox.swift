import Synchronization

/// A first-in, first-out queue of deliveries waiting to run on one actor.
///
/// A broadcast made outside a listener's actor cannot call it directly, so it
/// enqueues a job here. One drain task at a time runs the jobs in the order
/// they were enqueued, which keeps deliveries on an actor in broadcast order
/// (separate `Task`s would not guarantee that). The lock is never held while a
/// job runs, so a job may broadcast, add or remove freely.
final class ActorMailbox: Sendable {
    /// A unit of work; runs isolated to the mailbox's actor.
    typealias Job = @Sendable (_ isolation: isolated any Actor) -> Void

    private struct State {
        var jobs: [Job] = []
        var isDrainScheduled = false
    }

    let actor: any Actor
    private let state = Mutex(State())

    init(actor: any Actor) {
        self.actor = actor
    }

    func enqueue(_ job: @escaping Job) {
        let mustSchedule = state.withLock { state in
            state.jobs.append(job)
            guard !state.isDrainScheduled else { return false }
            state.isDrainScheduled = true
            return true
        }
        if mustSchedule { scheduleDrain() }
    }

    private func scheduleDrain() {
        let actor = self.actor
        Task { await self.drain(on: actor) }
    }

    /// Runs the jobs enqueued so far.
    ///
    /// If more arrived meanwhile, it hands the actor back before draining them
    /// in a new task: a stream of background broadcasts cannot starve the
    /// actor's other work. Only one drain is ever scheduled, so jobs still run
    /// in enqueue order.
    private func drain(on actor: isolated any Actor) {
        let jobs = state.withLock { state in
            let jobs = state.jobs
            state.jobs.removeAll(keepingCapacity: true)
            return jobs
        }
        for job in jobs { job(actor) }
        let hasMore = state.withLock { state in
            if state.jobs.isEmpty { state.isDrainScheduled = false }
            return state.isDrainScheduled
        }
        if hasMore { scheduleDrain() }
    }
}
