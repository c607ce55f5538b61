@testable import Broadcast

// The storage and table as tests drive them directly, without the
// broadcaster's lock: what they release is released when each call returns.

extension BroadcasterStorage {
    mutating func add(_ entry: ListenerEntry) -> Bool {
        var releases = Releases()
        return add(entry, receivingSticky: false, releasing: &releases).added
    }

    mutating func remove(_ key: EntryKey) -> ListenerEntry? {
        var releases = Releases()
        return remove(key, releasing: &releases)
    }

    /// `P`'s members, taking new entries in (every one is a `P` here) as a
    /// broadcast does.
    mutating func members<P>(of _: P.Type) -> [ListenerEntry] {
        let read: Members = members(of: P.self as Any.Type)
        guard case .intake(let intake) = read else {
            guard case .ready(let members) = read else { return [] }
            return members
        }
        var context = DeliveryContext(isolation: nil)
        var learned: [LearnedNonconformance] = []
        var seen = Set<ObjectIdentifier>()
        let admitted = intake.entries.compactMap { $0 }.filter { entry in
            guard entry.listens(to: intake.protocolID), let object = entry.liveObject,
                Routing.admits(object, of: entry, as: P.self, knowing: intake.known, in: &context, learned: &learned)
            else { return false }
            return !intake.isRebuild || seen.insert(entry.id).inserted
        }
        var releases = Releases()
        commit(intake, admitting: admitted, learned: learned, releasing: &releases)
        return intake.members + admitted
    }
}

extension ListenerTable {
    mutating func add(_ entry: ListenerEntry) -> Bool {
        var releases = Releases()
        return add(entry, releasing: &releases)
    }

    /// Live, registered entries in registration order.
    var liveEntries: [ListenerEntry] {
        entries.compactMap { entry in
            guard let entry, entry.liveObject != nil else { return nil }
            return entry
        }
    }
}
