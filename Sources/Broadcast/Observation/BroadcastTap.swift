import Synchronization

/// Sees every broadcast and post a broadcaster makes, once each, after its
/// synchronous part: where to count, log or trace deliveries.
///
/// A broadcaster has at most one tap, given when it is created
/// (``Broadcaster/init(tap:)``) or set once (``Broadcaster/setTap(_:)``).
/// ``observe(_:)`` is called on the thread or task that made the broadcast,
/// with no lock held; a broadcast or post it makes on the same broadcaster is
/// delivered but not observed. <doc:WatchingBroadcasts> states the rules.
public protocol BroadcastTap: Sendable {
    /// Called once per broadcast or post, after its synchronous part.
    ///
    /// - Parameter observation: What the broadcast or post did.
    func observe(_ observation: BroadcastObservation)
}

extension Broadcaster {
    /// Creates a broadcaster with no listeners whose broadcasts and posts
    /// `tap` observes.
    ///
    /// - Parameter tap: Called once per broadcast or post, with no lock held.
    public convenience init(tap: some BroadcastTap) {
        self.init()
        setTap(tap)
    }

    /// Sets the tap that observes this broadcaster's broadcasts and posts,
    /// once: for ``shared``, at the start of the process, as a logging
    /// system is bootstrapped.
    ///
    /// A broadcast already running when the tap is set is not observed.
    ///
    /// - Parameter tap: Called once per later broadcast or post, with no lock held.
    /// - Returns: Whether `tap` was set; false, with nothing changed, if this
    ///   broadcaster already has a tap.
    @discardableResult
    public func setTap(_ tap: some BroadcastTap) -> Bool {
        let box = TapBox(tap)
        return tapSlot.storeIfNil(box) === box
    }
}
