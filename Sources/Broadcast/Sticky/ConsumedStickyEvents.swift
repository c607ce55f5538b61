import Synchronization

/// A sticky event as it was kept at one moment: its value, and which state it
/// is.
///
/// Read with ``Broadcaster/stickyEventState(for:)``; hand it to
/// ``Broadcaster/clearStickyEvent(ifStill:)`` to clear the sticky event only if
/// it is still this state. States are told apart by when they were set, not
/// by their values: a newer post of an equal value is another state.
public struct StickyEventState<Event: Sendable>: Sendable {
    /// The event value kept.
    public let value: Event
    /// Which change of the sticky state this is.
    let generation: UInt64
}

extension Broadcaster {
    /// The sticky `Event` and which state it is, if one is kept; see
    /// ``StickyEventState``.
    ///
    /// - Parameter eventType: The event values to read.
    /// - Returns: The state, or nil if no `Event` is kept.
    public func stickyEventState<Event: Sendable>(for eventType: Event.Type) -> StickyEventState<Event>? {
        let protocolID = ObjectIdentifier(EventKey<Event>.self)
        guard let sticky = storage.latestSticky(for: protocolID), let value = sticky.value(as: Event.self) else {
            return nil
        }
        return StickyEventState(value: value, generation: sticky.generation.number)
    }

    /// Takes the sticky `Event`: reads and clears it in one step, so that two
    /// callers never both get it.
    ///
    /// For state consumed once: a deep link to open, a banner to show once.
    ///
    /// ```swift
    /// if let link = broadcaster.takeStickyEvent(for: DeepLink.self) {
    ///     open(link)
    /// }
    /// ```
    ///
    /// - Parameter eventType: The event values to take.
    /// - Returns: The sticky `Event`, now cleared; nil if none was kept.
    @discardableResult
    public func takeStickyEvent<Event: Sendable>(for eventType: Event.Type) -> Event? {
        let taken = clearSticky(of: Event.self, ifStill: nil)
        return taken?.value(as: Event.self)
    }

    /// Clears the sticky `Event` if it is still `state`: not replaced by a
    /// newer post (even of an equal value), not cleared or taken meanwhile.
    ///
    /// ```swift
    /// guard let banner = broadcaster.stickyEventState(for: Banner.self) else { return }
    /// show(banner.value)
    /// broadcaster.clearStickyEvent(ifStill: banner)  // a newer banner stays
    /// ```
    ///
    /// - Parameter state: The state read with ``stickyEventState(for:)``.
    /// - Returns: Whether it was cleared.
    @discardableResult
    public func clearStickyEvent<Event: Sendable>(ifStill state: StickyEventState<Event>) -> Bool {
        guard clearSticky(of: Event.self, ifStill: state.generation) != nil else { return false }
        tellStickyEventChange(StickyEventChange<Event>.cleared)
        return true
    }

    /// Clears the sticky `Event` (if it is still generation `expected`, when
    /// given) and tells its observers; returns what was cleared.
    func clearSticky<Event: Sendable>(of _: Event.Type, ifStill expected: UInt64?) -> StickyBroadcast? {
        clearSticky(for: ObjectIdentifier(EventKey<Event>.self), ifStill: expected)
    }

    /// Takes the state `call` delivers, for a consuming handler whose call
    /// is about to run, and tells the state's observers; false if it is no
    /// longer kept, or the call's registration was unregistered meanwhile.
    func take(_ call: StickyCall.Current) -> Bool {
        guard let taken = storage.takeSticky(call.generation, callingThrough: call.entry) else { return false }
        taken.announceChange?(self)
        return true
    }
}
