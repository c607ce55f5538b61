#if PostgresRelay
    extension Duration {
        /// Milliseconds, as logs show a delay or a gap: "250 ms".
        var relayDescription: String {
            let (seconds, attoseconds) = components
            return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
        }
    }
#endif
