/// A listener's actor, boxed: one word in an entry instead of an
/// existential's two, and one shared box for every main-actor listener.
///
/// The box is also the identity a broadcast compares to tell runs of
/// listeners of one actor apart cheaply (``ActorAnswers``).
final class IsolationBox: Sendable {
    let actor: any Actor

    /// The one box of every main-actor listener.
    static let mainActor = IsolationBox(MainActor.shared)

    /// The identity of ``mainActor``.
    static let mainActorID = ObjectIdentifier(mainActor)

    private init(_ actor: any Actor) {
        self.actor = actor
    }

    /// The box for `actor`: the shared one for the main actor.
    static func `for`(_ actor: any Actor) -> IsolationBox {
        actor === MainActor.shared ? mainActor : IsolationBox(actor)
    }

    var isMainActor: Bool { self === Self.mainActor }
}
