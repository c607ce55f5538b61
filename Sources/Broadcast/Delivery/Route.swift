/// What ``Routing`` decided for one listener.
enum Route {
    case called
    case schedule(on: any Actor)
    case skip
    /// Skip, and record that the class is not a `P` on its actor.
    case skipAndRecord(LearnedNonconformance)
    /// A listener with no actor whose cast failed where a conformance
    /// isolated to the main actor cannot be checked, and that the main actor
    /// has not settled yet: its call is scheduled there but not counted, and
    /// the main actor's cast makes it or not and settles the listener
    /// (within ``UnsettledCallLimit``); the index keeps it.
    case settleOnMainActor
}
