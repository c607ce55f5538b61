extension Broadcaster {
    /// Returns once every call this broadcaster scheduled on an actor before
    /// this call has run; returns at once, without waiting for the rest, if
    /// the task is cancelled.
    ///
    /// The barrier for code (and tests) that broadcasts through synchronous
    /// typed methods: `broadcaster.postCreated(post)`, then
    /// `await broadcaster.waitForScheduledDeliveries()`.
    public func waitForScheduledDeliveries() async {
        for mailbox in mailboxes.all() {
            guard !Task.isCancelled else { return }
            await MailboxBarrier.wait(for: mailbox)
        }
    }
}
