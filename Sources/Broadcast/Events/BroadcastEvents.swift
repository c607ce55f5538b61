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
/// broadcaster is released. It receives events on the posting thread and
/// buffers every one by default (`.bufferingNewest(n)` keeps the newest `n`).
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
