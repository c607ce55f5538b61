/// Listener classes known not to be a `P` on the actor their listeners
/// registered from, as learned by casts made where that is definitive (on
/// the actor: see ``DeliveryContext/castsAreDefinitive(on:)``).
///
/// Needed because a cast made elsewhere cannot tell "does not conform" from
/// "conforms only on that actor": without this record, an index rebuilt by a
/// broadcast from another thread would list such a listener again, and every
/// broadcast from there would schedule a call that does nothing.
///
/// Keyed by actor as well as class and protocol: a class's conformance
/// isolated to the main actor is a `P` for its main-actor listeners and not
/// for those registered on another actor. Actors here are the ones listeners
/// registered from; a conformance can only be isolated to a global actor,
/// whose instance lives as long as the process.
struct KnownNonconformances {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let protocolType: ObjectIdentifier
        let actor: ObjectIdentifier
    }

    private var keys: Set<Key> = []

    func contains(_ type: AnyObject.Type, _ protocolType: Any.Type, on actor: any Actor) -> Bool {
        keys.contains(
            Key(
                type: ObjectIdentifier(type), protocolType: ObjectIdentifier(protocolType),
                actor: ObjectIdentifier(actor)))
    }

    /// Records it; returns whether it was new.
    @discardableResult
    mutating func insert(_ type: AnyObject.Type, _ protocolType: Any.Type, on actor: any Actor) -> Bool {
        keys.insert(
            Key(
                type: ObjectIdentifier(type), protocolType: ObjectIdentifier(protocolType),
                actor: ObjectIdentifier(actor))
        ).inserted
    }
}
