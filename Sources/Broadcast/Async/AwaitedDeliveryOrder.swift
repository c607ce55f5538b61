/// How an awaited broadcast runs its listeners' asynchronous calls.
///
/// See ``Broadcaster/broadcast(awaitingEach:order:isolation:_:)``.
///
/// A struct with static members, not an enum, so that a later release can
/// add an order without breaking a `switch` written against this one.
public struct AwaitedDeliveryOrder: Sendable, Hashable {
    /// The orders this release knows.
    enum Mode: Sendable, Hashable {
        case sequential
        case concurrent
    }

    let mode: Mode

    private init(_ mode: Mode) {
        self.mode = mode
    }

    /// One call at a time, in registration order: each listener's call
    /// starts once the previous one has returned.
    public static let sequential = AwaitedDeliveryOrder(.sequential)

    /// Every call in its own child task of a task group, the tasks created in
    /// registration order.
    ///
    /// The calls may then begin in any order and run at the same time. The
    /// broadcast returns once all of them have returned.
    public static let concurrent = AwaitedDeliveryOrder(.concurrent)
}
