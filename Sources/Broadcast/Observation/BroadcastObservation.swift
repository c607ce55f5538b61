/// What one broadcast or post did, as its broadcaster's ``BroadcastTap`` sees it.
public struct BroadcastObservation: Sendable, CustomStringConvertible {
    /// Which kind of call made the broadcast or post.
    ///
    /// One of the static members, compared with `==` or matched in a
    /// `switch`; a struct, so that a release can add a kind.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The kind's name, as its static member spells it.
        public var description: String { name }

        /// A synchronous protocol broadcast: `broadcast(to:)`,
        /// `broadcast(to:with:)`, their `broadcastOnMainActor` forms, sticky or not.
        public static let broadcast = Kind("broadcast")

        /// An awaited broadcast or post: `broadcast(awaitingEach:)` and
        /// `post(awaitingEach:)`; its calls are all made when it is observed.
        public static let awaitedBroadcast = Kind("awaitedBroadcast")

        /// A post of an event value, `post(_:)`, sticky or not.
        public static let post = Kind("post")
    }

    /// Which kind of call made it.
    public let kind: Kind

    /// The listener protocol of a broadcast, or the event type of a post.
    let subject: any Any.Type

    /// The name of the listener protocol (a broadcast) or of the event type
    /// (a post), qualified by its module as `String(reflecting:)` spells it:
    /// `any MyApp.SessionListener`, `MyApp.UserSignedIn`.
    ///
    /// Made when first read for a type, then kept.
    public var subjectName: String { SubjectNames.name(of: subject) }

    /// Whether its synchronous part ran on the main thread.
    public let ranOnMainThread: Bool

    /// The listeners and handlers called during its synchronous part; for
    /// an awaited broadcast, the calls that began.
    public let calledCount: Int

    /// The calls it scheduled to run later on an actor.
    ///
    /// On the main actor, or on the actor a listener registered with
    /// `calledOn:`. Always 0 for an awaited broadcast, which awaits each
    /// call where it runs.
    ///
    /// ``calledCount`` plus ``scheduledCount`` is what the broadcast or
    /// post returned.
    public let scheduledCount: Int

    /// How long its synchronous part took, measured with `ContinuousClock`;
    /// for an awaited broadcast, until its last call returned.
    public let duration: Duration

    /// Whether it was sticky: kept for listeners that register later.
    public let isSticky: Bool

    init(
        kind: Kind, subject: any Any.Type, ranOnMainThread: Bool, calledCount: Int, scheduledCount: Int,
        duration: Duration, isSticky: Bool
    ) {
        self.kind = kind
        self.subject = subject
        self.ranOnMainThread = ranOnMainThread
        self.calledCount = calledCount
        self.scheduledCount = scheduledCount
        self.duration = duration
        self.isSticky = isSticky
    }

    /// One line: the kind, the subject, the counts, the thread and the duration.
    public var description: String {
        let sticky = isSticky ? " (sticky)" : ""
        let thread = ranOnMainThread ? "on the main thread" : "off the main thread"
        return "\(kind)\(sticky) \(subjectName): \(calledCount) called, \(scheduledCount) scheduled, \(thread), "
            + "in \(duration)"
    }
}
