import Synchronization

/// Which sticky broadcast a state belongs to: its protocol, and its place
/// in the order in which the broadcaster recorded sticky broadcasts.
struct StickyGeneration: Sendable {
    let protocolID: ObjectIdentifier
    let number: UInt64
}

/// The newest sticky broadcast, per protocol, that one listener has been
/// called with: what keeps an older state from reaching a listener after a
/// newer one did.
///
/// Every call of a sticky broadcast (made at once, in an actor's mailbox, or
/// as a replay) first claims its generation here; a claim fails once a newer
/// generation of the same protocol was claimed. Calls that arrive in order
/// all succeed, so no state is lost; only one overtaken by a newer state is
/// skipped: a broadcast resumed after a listener re-broadcast a newer state
/// (delivery is depth-first), or a call scheduled before a newer one made
/// directly on the listener's actor.
final class StickyProgress: Sendable {
    private let claimed = Mutex<[ObjectIdentifier: UInt64]>([:])

    /// Claims the call of `generation`: true unless a newer generation of
    /// its protocol has been claimed.
    func claim(_ generation: StickyGeneration) -> Bool {
        claimed.withLock { claimed in
            if let newest = claimed[generation.protocolID], newest > generation.number { return false }
            claimed[generation.protocolID] = generation.number
            return true
        }
    }
}
