import Synchronization

/// A first-in, first-out queue of deliveries waiting to run on one actor.
///
/// One drain task at a time runs the jobs in enqueue order, which keeps an
/// actor's deliveries in broadcast order (separate `Task`s would not). No
/// lock is held while a job runs, so a job may broadcast, add or remove.
final class ActorMailbox: Sendable {
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

    /// Whether every job enqueued so far has run: no drain is scheduled or
    /// running.
    var isIdle: Bool { state.withLock { !$0.isDrainScheduled } }

    private func scheduleDrain() {
        let actor = self.actor
        Task { await self.drain(on: actor) }
    }

    /// Runs the jobs enqueued so far; jobs enqueued meanwhile run in a new
    /// task, so a stream of broadcasts cannot starve the actor's other work.
    ///
    /// Each job, and the payload it holds, is released as soon as it has
    /// run: a job enqueued after it (the barrier of
    /// ``Broadcaster/waitForScheduledDeliveries()``) finds it gone.
    private func drain(on actor: isolated any Actor) {
        var jobs = state.withLock { state in
            defer { state.jobs.removeAll(keepingCapacity: true) }
            return state.jobs
        }
        jobs.reverse()
        while let job = jobs.popLast() { job(actor) }
        let hasMore = state.withLock { state in
            if state.jobs.isEmpty { state.isDrainScheduled = false }
            return state.isDrainScheduled
        }
        if hasMore { scheduleDrain() }
    }
}

/// One ``ActorMailbox`` per actor a broadcaster has scheduled deliveries on:
/// the main actor's from the start, others made on first use and kept
/// (bounded by the actors listeners registered from).
final class ActorMailboxes: Sendable {
    private let main = ActorMailbox(actor: MainActor.shared)
    private let others = Mutex<[ObjectIdentifier: ActorMailbox]>([:])

    func mailbox(for actor: any Actor) -> ActorMailbox {
        if actor === MainActor.shared { return main }
        return others.withLock { others in
            if let mailbox = others[ObjectIdentifier(actor)] { return mailbox }
            let mailbox = ActorMailbox(actor: actor)
            others[ObjectIdentifier(actor)] = mailbox
            return mailbox
        }
    }

    func all() -> [ActorMailbox] {
        [main] + others.withLock { Array($0.values) }
    }
}
