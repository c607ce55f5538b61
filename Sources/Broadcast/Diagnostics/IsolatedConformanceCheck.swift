#if DEBUG
    import Synchronization

    /// Debug builds only: notices a listener whose conformance is isolated to
    /// the main actor but that registered from code not isolated to the main
    /// actor (no actor, or another one).
    ///
    /// Why: Broadcast does not move such a listener's calls to the main
    /// actor. A Swift runtime that checks isolated conformances (Swift 6.2 and
    /// later: Linux, Apple OS releases of the 26 generation) fails the cast
    /// off the main actor, so the listener is skipped there, harmlessly; the
    /// runtimes of earlier Apple OS releases do not check, the cast succeeds
    /// on any thread, and a background broadcast calls main-actor code on its
    /// own thread. Nothing shows where the mistake is made, so it is found
    /// here, with this runtime's check, and reported with the fix.
    ///
    /// How: the delivery path's cast, made for the entries an index has just
    /// considered, in two places: where the main actor's isolated conformances
    /// can be checked, where it succeeds, and on a new thread outside any
    /// task, where it fails. Succeeding there and failing here is exactly a
    /// conformance isolated to the main actor. A cast that fails where the
    /// main actor cannot be seen leaves the answer open, with the listener
    /// held weakly, until the protocol's listeners are next looked up on the
    /// main actor. One answer per broadcaster, listener class and protocol.
    /// It runs with no lock of the broadcaster held (its own lock is never
    /// held while it casts or waits for the thread); reports go through the
    /// main actor's mailbox.
    final class IsolatedConformanceCheck: Sendable {
        private struct Key: Hashable {
            let type: ObjectIdentifier
            let protocolType: ObjectIdentifier
        }

        /// A listener whose cast failed where the main actor's isolated
        /// conformances cannot be checked: not isolated to the main actor,
        /// or not conforming at all; the main actor tells which.
        private struct Open {
            let listener: WeakListener
            let site: RegistrationSite?
        }

        private struct State {
            /// The classes and protocols answered, or being answered.
            var claimed: Set<Key> = []
            /// Per protocol, per class: the ones left open.
            var open: [ObjectIdentifier: [ObjectIdentifier: Open]] = [:]
        }

        private let state = Mutex(State())

        /// Checks the listeners of `entries`, just considered by `P`'s index
        /// in `context`, that registered without the main actor, and, where
        /// `context` can check the main actor's isolated conformances, those
        /// left open for `P`; reports each conformance isolated to the main
        /// actor to `broadcaster`'s handler.
        func inspect<P>(
            _ entries: ArraySlice<ListenerEntry?>, as _: P.Type, in context: inout DeliveryContext,
            for broadcaster: Broadcaster
        ) {
            let protocolID = ObjectIdentifier(P.self)
            // Most broadcasts take nothing in: asking where this runs costs
            // more than the lookup that tells there is nothing to answer.
            if entries.isEmpty, state.withLock({ $0.open[protocolID] == nil }) { return }
            let seesMainActor = context.castsAreDefinitive(on: MainActor.shared)
            var candidates: [(object: AnyObject, key: Key, site: RegistrationSite?)] = []
            for case let entry? in entries where entry.isolationBox?.isMainActor != true {
                guard entry.listens(to: protocolID), let object = entry.liveObject else { continue }
                let key = Key(type: ObjectIdentifier(type(of: object)), protocolType: protocolID)
                candidates.append((object, key, entry.registrationSite))
            }
            // Claimed under the lock, cast outside it.
            let (claimed, reopened) = state.withLock { state in
                // Answered now, by the main actor: a class left open is not
                // claimed again by one of its entries taken in now.
                let reopened = seesMainActor ? Array((state.open.removeValue(forKey: protocolID) ?? [:])) : []
                for (type, _) in reopened { state.claimed.insert(Key(type: type, protocolType: protocolID)) }
                var claimed: [Int] = []
                for (position, candidate) in candidates.enumerated() where state.claimed.insert(candidate.key).inserted
                {
                    claimed.append(position)
                }
                return (claimed, reopened)
            }
            var conformingOnMainActor: [(object: AnyObject, site: RegistrationSite?)] = []
            for (_, open) in reopened {
                guard let object = open.listener.object, Conformance.conforms(object, to: P.self) else { continue }
                conformingOnMainActor.append((object, open.site))
            }
            for position in claimed {
                let candidate = candidates[position]
                let conformsHere = Conformance.conforms(candidate.object, to: P.self)
                if seesMainActor {
                    if conformsHere { conformingOnMainActor.append((candidate.object, candidate.site)) }
                } else if !conformsHere {
                    // Open until the main actor can tell.
                    let open = Open(listener: WeakListener(candidate.object), site: candidate.site)
                    state.withLock { state in
                        state.claimed.remove(candidate.key)
                        state.open[protocolID, default: [:]][candidate.key.type] = open
                    }
                }
            }
            guard !conformingOnMainActor.isEmpty else { return }
            let offMainActor = ThreadAnswer.conform(conformingOnMainActor.map(\.object), as: P.self)
            let mainMailbox = broadcaster.mailboxes.mailbox(for: MainActor.shared)
            for (listener, conforms) in zip(conformingOnMainActor, offMainActor) where !conforms {
                let diagnostic = BroadcastDiagnostic(
                    kind: .isolatedConformanceRegisteredOffMainActor,
                    typeName: String(describing: Swift.type(of: listener.object)),
                    protocolName: String(describing: P.self),
                    fileID: listener.site.map { "\($0.fileID)" } ?? "", line: listener.site.map { Int($0.line) } ?? 0)
                mainMailbox.enqueue { _ in broadcaster.report(diagnostic) }
            }
        }
    }
#endif
