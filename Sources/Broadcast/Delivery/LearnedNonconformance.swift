/// A listener class proved not to be a `P` on an actor.
struct LearnedNonconformance: Sendable {
    let type: AnyObject.Type
    let actor: any Actor
}
