/// A closure handler as the listener table holds it, seen without its event
/// type: the post it listens to, and a call that takes any event.
///
/// A delivery tells a handler from any other object by its entry
/// (``ListenerEntry/isHandler``, a cast to this class made once when it
/// registers), and calls it typed or through ``receive(posted:)``, never
/// through a cast to
/// `any EventListener<Event>`: on this toolchain that cast, a constrained
/// existential, costs about 950 ns, the call itself a few (see
/// Docs/PerformanceNotes.md).
@usableFromInline
class EventHandler {
    /// The key of the handler's post (``EventKey``, as an identifier): its
    /// index and its sticky state.
    let postKey: ObjectIdentifier

    init(postKey: ObjectIdentifier) {
        self.postKey = postKey
    }

    /// Calls the handler with `event`, a value of the event type its post
    /// key names (anything else is ignored).
    @usableFromInline
    func receive<Posted>(posted event: Posted) {}
}
