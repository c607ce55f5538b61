/// Whether the delivery runs on a listener's actor, asked once per run of
/// listeners that share an ``IsolationBox`` (the members keep every box
/// alive, so an identity is not reused).
struct ActorAnswers {
    private var lastBox: ObjectIdentifier?
    private var lastAnswer = false

    mutating func isRunning(
        onActorWith id: ObjectIdentifier, in context: inout DeliveryContext, _ actor: () -> any Actor
    ) -> Bool {
        if id == lastBox { return lastAnswer }
        // The main actor's box needs no look at its actor.
        lastAnswer = id == IsolationBox.mainActorID ? context.isOnMainQueue : context.isRunning(on: actor())
        lastBox = id
        return lastAnswer
    }
}
