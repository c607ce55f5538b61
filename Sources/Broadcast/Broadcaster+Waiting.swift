extension Broadcaster {
    /// Returns once every call this broadcaster scheduled on an actor before
    /// this call has run, or as soon as the waiting task is cancelled.
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
        for mailbox in mailboxes.all() where !mailbox.isIdle {
            guard !Task.isCancelled else { return }
            let barrier = CancellableBarrier()
            await withTaskCancellationHandler {
                await barrier.wait { open in mailbox.enqueue { _ in open() } }
            } onCancel: {
                barrier.open()
            }
        }
    }
}
