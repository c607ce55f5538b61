/// An asynchronous sequence of the `Event` values posted to a broadcaster.
///
/// ```swift
/// struct Connectivity: Sendable { let isOnline: Bool }
///
/// for await change in broadcaster.events(of: Connectivity.self) {
///     banner.isHidden = change.isOnline
/// }
/// ```
///
/// The sequence ends when the consuming task is cancelled, and when the
/// broadcaster is released. Each sequence is a listener registered from
/// non-isolated code: it receives events synchronously on the posting thread
/// and buffers them for the consumer.
///
/// Buffering: ``Broadcaster/events(of:bufferingPolicy:receivingSticky:)``
/// keeps every event by default (`.unbounded`), so no event is lost while the
/// consumer is busy; pass `.bufferingNewest(n)` to keep only the newest `n`
/// (Foundation's typed messages keep the newest 10) or `.bufferingOldest(n)`.
public struct BroadcastEvents<Event: Sendable>: AsyncSequence, Sendable {
    /// The values the sequence produces.
    public typealias Element = Event

    /// The iterator, which returns `nil` once the sequence has ended.
    public typealias AsyncIterator = AsyncStream<Event>.Iterator

    let stream: AsyncStream<Event>

    /// Makes the iterator; a sequence supports one consumer.
    public func makeAsyncIterator() -> AsyncStream<Event>.Iterator {
        stream.makeAsyncIterator()
    }
}
