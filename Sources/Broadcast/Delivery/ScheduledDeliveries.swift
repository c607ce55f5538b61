/// The deliveries a broadcast could not make where it ran, grouped by the
/// actor they must run on, each group in registration order.
struct ScheduledDeliveries {
    struct Batch {
        let actor: any Actor
        var entries: [ListenerEntry]
    }

    private(set) var batches: [Batch] = []

    var isEmpty: Bool { batches.isEmpty }

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
