/// Cast projections learned by scheduled calls on the main actor, for the
/// index of the protocol they were delivered as.
///
/// Why: a broadcast made on the main queue by a thread other than the main
/// thread (a main-queue block after `dispatchMain()`) cannot check a
/// conformance isolated to the main actor, so it schedules the call. The
/// scheduled call runs in a main-actor task, where the cast succeeds; the
/// projection it yields, kept for the listener's class (valid on the main
/// queue only, like every projection made there), lets later broadcasts on
/// the main queue call such listeners at once instead of through a hop.
struct LearnedProjections {
    private(set) var projections: [(type: ObjectIdentifier, projection: CastProjection)] = []

    var isEmpty: Bool { projections.isEmpty }

    /// Keeps the projection of `listener`, the cast of `object`, made on the
    /// main actor, once per class.
    mutating func note<P>(_ listener: P, of object: AnyObject) {
        let objectType = ObjectIdentifier(type(of: object))
        guard !projections.contains(where: { $0.type == objectType }),
            let projection = CastProjection.make(listener, of: object, madeOnMainQueue: true)
        else { return }
        keep(projection, of: objectType)
    }

    /// Keeps `projection`, made on the main actor, for the class
    /// `objectType`, unless the class has one.
    mutating func keep(_ projection: CastProjection, of objectType: ObjectIdentifier) {
        guard !projections.contains(where: { $0.type == objectType }) else { return }
        projections.append((objectType, projection))
    }
}
