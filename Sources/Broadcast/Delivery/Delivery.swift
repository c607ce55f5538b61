/// The calls themselves: one pass over a snapshot of an index's members.
///
/// Runs with no lock held. Before each call it re-checks that the entry is
/// still registered and its listener alive, which is what makes a removal or
/// release during a broadcast take effect for the rest of that broadcast.
enum Delivery {
    /// Calls every member that can be called where the broadcast runs, and
    /// collects the others into `scheduled`, grouped by their actor.
    ///
    /// - Parameters:
    ///   - members: A snapshot of the index, in registration order.
    ///   - listenerType: The protocol the members are delivered as.
    ///   - context: Where the broadcast runs.
    ///   - actorOverride: An actor every member must be called on
    ///     (``Broadcaster/broadcastOnMainActor(to:sticky:isolation:_:)``),
    ///     replacing the isolation each registered with.
    ///   - scheduled: Collects the members to call on their actors.
    ///   - nonconforming: Told about a listener found, definitively, not to
    ///     conform (one that was only tentatively in the index).
    ///   - call: Makes the typed call.
    /// - Returns: The number of calls made or scheduled.
    static func deliver<P>(
        to members: [IndexMember],
        as listenerType: P.Type,
        context: inout DeliveryContext,
        actorOverride: (any Actor)?,
        scheduled: inout ScheduledDeliveries,
        nonconforming: (AnyObject.Type) -> Void,
        _ call: (P) -> Void
    ) -> Int {
        var count = 0
        for member in members {
            let entry = member.entry
            guard let object = entry.liveObject else { continue }
            guard let actor = actorOverride ?? entry.isolation else {
                if member.withListener(object, as: P.self, in: &context, call) { count += 1 }
                continue
            }
            if !context.isRunning(on: actor) {
                scheduled.append(entry, on: actor)
                count += 1
            } else if member.withListener(object, as: P.self, in: &context, call) {
                count += 1
            } else if context.castsAreDefinitive(on: actor) {
                nonconforming(type(of: object))
            } else {
                scheduled.append(entry, on: actor)
                count += 1
            }
        }
        return count
    }

    /// Runs a scheduled batch on its actor.
    ///
    /// Every cast here is definitive, so
    /// a listener that turns out not to conform is reported through
    /// `nonconforming` (and is not counted).
    ///
    /// - Returns: the number of calls made.
    static func deliverScheduled<P>(
        _ entries: [ListenerEntry],
        as _: P.Type,
        nonconforming: (AnyObject.Type) -> Void,
        _ call: (P) -> Void
    ) -> Int {
        var count = 0
        for entry in entries {
            guard let object = entry.liveObject else { continue }
            if let listener = object as? P {
                call(listener)
                count += 1
            } else {
                nonconforming(type(of: object))
            }
        }
        return count
    }
}

/// The deliveries a broadcast could not make where it ran, grouped by the
/// actor they must run on, each group in registration order.
struct ScheduledDeliveries {
    struct Batch {
        let actor: any Actor
        var entries: [ListenerEntry]
    }

    private(set) var batches: [Batch] = []

    var isEmpty: Bool { batches.isEmpty }

    var entryCount: Int { batches.reduce(0) { $0 + $1.entries.count } }

    mutating func append(_ entry: ListenerEntry, on actor: any Actor) {
        // Few distinct actors (usually only the main actor): a linear search
        // beats hashing.
        if let index = batches.firstIndex(where: { $0.actor === actor }) {
            batches[index].entries.append(entry)
        } else {
            batches.append(Batch(actor: actor, entries: [entry]))
        }
    }
}
