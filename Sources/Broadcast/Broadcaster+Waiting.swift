extension Broadcaster {
    /// Returns once every call this broadcaster scheduled on an actor before
    /// this call has run, or as soon as the waiting task is cancelled.
    ///
    /// The one barrier for every synchronous form (``broadcast(to:sticky:isolation:_:)``,
    /// ``broadcastOnMainActor(to:sticky:isolation:_:)``, ``post(_:sticky:isolation:)``,
    /// sticky replays): code and tests call the app's own typed method, then
    /// wait here, instead of repeating the typed method's body.
    ///
    /// ```swift
    /// broadcaster.postCreated(post)
    /// await broadcaster.waitForScheduledDeliveries()
    /// ```
    ///
    /// Cancelled, it stops waiting at once, whatever is still scheduled: the
    /// scheduled calls still run, later.
    public func waitForScheduledDeliveries() async {
        for mailbox in mailboxes.all() {
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
