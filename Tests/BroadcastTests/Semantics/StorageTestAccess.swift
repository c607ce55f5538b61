@testable import Broadcast

// The storage and table as tests drive them directly, without the
// broadcaster's lock: what they release is released when each call returns.

extension BroadcasterStorage {
    mutating func add(_ entry: ListenerEntry) -> Bool {
        var context = DeliveryContext(isolation: nil)
        var releases = Releases()
        return add(entry, in: &context, releasing: &releases).added
    }

    mutating func remove(_ key: EntryKey) -> ListenerEntry? {
        var releases = Releases()
        return remove(key, releasing: &releases)
    }

    mutating func members<P>(of _: P.Type) -> [ListenerEntry] {
        var context = DeliveryContext(isolation: nil)
        var releases = Releases()
        return members(of: P.self, in: &context, releasing: &releases).members
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
