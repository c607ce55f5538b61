/// A `@MainActor` call carried as a plain `@Sendable` one; the delivery path
/// makes it on the main actor only, which `assumeIsolated` checks each time.
enum MainActorCall {
    static func wrap<P>(_ deliver: @escaping @MainActor @Sendable (P) -> Void) -> @Sendable (P) -> Void {
        { listener in call(deliver, with: listener) }
    }

    static func call<P>(_ deliver: @MainActor (P) -> Void, with listener: P) {
        // `nonisolated(unsafe)`: the listener was obtained on the main actor for
        // this call only; `assumeIsolated` checks the caller is there.
        nonisolated(unsafe) let listener = listener
        MainActor.assumeIsolated { deliver(listener) }
    }
}
