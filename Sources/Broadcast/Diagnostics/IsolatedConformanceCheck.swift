#if DEBUG
    import Synchronization

    /// Debug builds only: reports a listener whose conformance is isolated to
    /// the main actor but that registered from code not isolated to it.
    ///
    /// Runtimes before the Apple 26 releases do not check isolated
    /// conformances, so a background broadcast would call such a listener on
    /// its own thread there; this runtime's check finds the mistake. The
    /// cast is made where the main actor's conformances are seen and on a new
    /// thread outside any task: succeeding there and failing here is exactly
    /// a conformance isolated to the main actor. One answer per class and
    /// protocol; no lock is held while it casts.
    final class IsolatedConformanceCheck: Sendable {
        private struct Key: Hashable {
            let type: ObjectIdentifier
            let protocolType: ObjectIdentifier
        }

        /// A listener whose cast failed where the main actor is not seen; the
        /// main actor tells whether it conforms there.
        private struct Open {
            let listener: WeakListener
            let site: RegistrationSite?
            let actor: String?
        }

        /// A listener that may be reported, and what the report says of it.
        private struct Candidate {
            let object: AnyObject
            let site: RegistrationSite?
            /// The type of the actor it registered on; nil for none.
            let actor: String?
        }

        private struct State {
            var claimed: Set<Key> = []
            var open: [ObjectIdentifier: [ObjectIdentifier: Open]] = [:]
        }

        private let state = Mutex(State())

        /// Checks `entries`, just decided by `P`'s index, and, where the main
        /// actor is seen, the answers left open for `P`.
        func inspect<P>(
            _ entries: ArraySlice<ListenerEntry?>, as _: P.Type, in context: inout DeliveryContext,
            for broadcaster: Broadcaster
        ) {
            let protocolID = ObjectIdentifier(P.self)
            // Most broadcasts take nothing in: asking where this runs costs
            // more than the lookup that tells there is nothing to answer.
            if entries.isEmpty, state.withLock({ $0.open[protocolID] == nil }) { return }
            let seesMainActor = context.castsAreDefinitive(on: MainActor.shared)
            var candidates: [(candidate: Candidate, key: Key)] = []
            for case let entry? in entries where entry.isolationBox?.isMainActor != true {
                guard entry.listens(to: protocolID), let object = entry.liveObject else { continue }
                let key = Key(type: ObjectIdentifier(type(of: object)), protocolType: protocolID)
                let actor = entry.isolation.map { String(describing: type(of: $0)) }
                candidates.append((Candidate(object: object, site: entry.registrationSite, actor: actor), key))
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
            var conformingOnMainActor: [Candidate] = []
            for (_, open) in reopened {
                guard let object = open.listener.object, Conformance.conforms(object, to: P.self) else { continue }
                conformingOnMainActor.append(Candidate(object: object, site: open.site, actor: open.actor))
            }
            for position in claimed {
                let (candidate, key) = candidates[position]
                let conformsHere = Conformance.conforms(candidate.object, to: P.self)
                if seesMainActor {
                    if conformsHere { conformingOnMainActor.append(candidate) }
                } else if !conformsHere {
                    // Open until the main actor can tell.
                    let open = Open(
                        listener: WeakListener(candidate.object), site: candidate.site, actor: candidate.actor)
                    state.withLock { state in
                        state.claimed.remove(key)
                        state.open[protocolID, default: [:]][key.type] = open
                    }
                }
            }
            guard !conformingOnMainActor.isEmpty else { return }
            let offMainActor = ThreadAnswer.conform(conformingOnMainActor.map(\.object), as: P.self)
            // Reported here, on the main actor, with no lock held: a report
            // enqueued instead would run after a barrier the scheduled
            // delivery making it was already ahead of.
            for (listener, conforms) in zip(conformingOnMainActor, offMainActor) where !conforms {
                let diagnostic = BroadcastDiagnostic(
                    kind: .isolatedConformanceRegisteredOffMainActor,
                    typeName: String(describing: Swift.type(of: listener.object)),
                    protocolName: String(describing: P.self),
                    fileID: listener.site.map { "\($0.fileID)" } ?? "", line: listener.site.map { Int($0.line) } ?? 0,
                    registeringActor: listener.actor)
                broadcaster.report(diagnostic)
            }
        }
    }
#endif
