#if PostgresRelay
    /// The delays between attempts to reconnect: doubling from the initial
    /// delay up to the maximum, each drawn between half of it and all of it.
    struct ReconnectBackoff {
        let initial: Duration
        let maximum: Duration

        /// The delay after the `attempt`th failed attempt in a row (1 for the
        /// first).
        func delay(after attempt: Int) -> Duration {
            var delay = initial
            for _ in 1..<max(attempt, 1) where delay < maximum {
                delay *= 2
            }
            delay = min(delay, maximum)
            return delay * Double.random(in: 0.5...1.0)
        }
    }
#endif
