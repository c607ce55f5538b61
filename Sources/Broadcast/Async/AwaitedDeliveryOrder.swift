/// How an awaited broadcast runs its listeners' asynchronous calls.
///
/// See ``Broadcaster/broadcast(awaitingEach:order:isolation:_:)``.
public enum AwaitedDeliveryOrder: Sendable {
    /// One call at a time, in registration order: each listener's call
    /// starts once the previous one has returned.
    case sequential

    /// Every call in its own child task of a task group, the tasks created in
    /// registration order; the calls may then begin in any order and run at
    /// the same time. The broadcast returns once all of them have returned.
    case concurrent
}
