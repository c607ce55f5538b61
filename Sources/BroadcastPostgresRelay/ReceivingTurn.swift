#if PostgresRelay
    import NIOConcurrencyHelpers

    /// Lets one task at a time receive for a route: the task listening on its
    /// channel, or the one that reads, on a heartbeat, rows the route missed.
    ///
    /// A route takes numbers and posts in order only if one task does both:
    /// rows read back while the listening task posted a later notification
    /// would be posted after it. A notification that arrives while the other
    /// task has the turn is left to it, and received, in order, once it is
    /// done. One turn per route and connection.
    final class ReceivingTurn: Sendable {
        private struct State {
            var isTaken = false
            var left: [String] = []
        }

        private let state = NIOLockedValueBox(State())

        /// Takes the turn, or, if another task has it, leaves `payload` (if
        /// any) to it: `false`.
        func take(orLeave payload: String?) -> Bool {
            state.withLockedValue { state in
                guard state.isTaken else {
                    state.isTaken = true
                    return true
                }
                if let payload { state.left.append(payload) }
                return false
            }
        }

        /// The payloads left to the holder so far, still left.
        var left: [String] {
            state.withLockedValue { $0.left }
        }

        /// Ends the turn, unless payloads were left meanwhile: those, in
        /// order, for the holder to receive before ending it again.
        func end() -> [String] {
            state.withLockedValue { state in
                guard !state.left.isEmpty else {
                    state.isTaken = false
                    return []
                }
                defer { state.left = [] }
                return state.left
            }
        }
    }
#endif
