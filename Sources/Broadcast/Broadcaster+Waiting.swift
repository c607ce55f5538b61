extension Broadcaster {
    /// Returns once every call this broadcaster scheduled on an actor before
    /// this call has run, and every cast the main actor makes of a listener
    /// registered before it with no actor, or as soon as the waiting task is
    /// cancelled.
    ///
    /// The one barrier for every synchronous form and sticky replays:
    ///
    /// ```swift
    /// broadcaster.postCreated(post)
    /// await broadcaster.waitForScheduledDeliveries()
    /// ```
    ///
    /// Cancelled, it stops waiting at once; the scheduled calls still run.
    /// It does not wait for an actor nothing is scheduled on (a program
    /// whose main actor never runs is not kept waiting for it).
    public func waitForScheduledDeliveries() async {
        // Read first: a call that runs meanwhile may register a listener, which this wait does not cover.
        let castsToWaitFor = mainActorCasts.requestsToWaitFor
        for mailbox in mailboxes.all() where !mailbox.isIdle {
            await waitUnlessCancelled { open in mailbox.enqueue { _ in open() } }
        }
        if let castsToWaitFor {
            await waitUnlessCancelled { open in mainActorCasts.whenCast(upTo: castsToWaitFor, open) }
        }
    }

    /// Waits until the function `schedule` is handed is called, or the
    /// waiting task is cancelled.
    private func waitUnlessCancelled(scheduling schedule: (@escaping @Sendable () -> Void) -> Void) async {
        guard !Task.isCancelled else { return }
        let barrier = CancellableBarrier()
        await withTaskCancellationHandler {
            await barrier.wait(scheduling: schedule)
        } onCancel: {
            barrier.open()
        }
    }
}
