/// A `@MainActor` call, carried by the delivery path as a plain `@Sendable`
/// one: what `broadcastOnMainActor` hands to it.
///
/// Safe because the delivery path makes every call of a main-actor broadcast
/// on the main actor only: where ``DeliveryContext`` found the main actor, or
/// in the main actor's mailbox. `MainActor.assumeIsolated` checks that claim
/// at run time, on every call.
enum MainActorCall {
    static func wrap<P>(_ deliver: @escaping @MainActor @Sendable (P) -> Void) -> @Sendable (P) -> Void {
        { listener in call(deliver, with: listener) }
    }

    /// Calls `deliver` with `listener`; runs on the main actor (see above).
    static func call<P>(_ deliver: @MainActor (P) -> Void, with listener: P) {
        // `nonisolated(unsafe)`: the listener was obtained on the main actor
        // for this call and is used nowhere else, so handing it into the
        // main-actor closure crosses no isolation; the compiler cannot see
        // that the caller runs on the main actor, which `assumeIsolated`
        // checks.
        nonisolated(unsafe) let listener = listener
        MainActor.assumeIsolated { deliver(listener) }
    }
}
