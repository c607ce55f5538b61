#if Logging
    import Broadcast
    import Logging

    /// A tap that writes one log line per broadcast and post to a swift-log
    /// `Logger`.
    ///
    /// Give it to a broadcaster when you make it, or set it once:
    ///
    /// ```swift
    /// let broadcaster = Broadcaster(tap: LoggingBroadcastTap(logger: Logger(label: "app.broadcasts")))
    /// ```
    ///
    /// Each line's message is the kind of call (`broadcast`, `post`, ...); its
    /// metadata says what was observed:
    ///
    /// | key | value |
    /// | --- | --- |
    /// | `broadcast.kind` | the kind of call, as the message |
    /// | `broadcast.subject` | the listener protocol or event type |
    /// | `broadcast.called` | listeners called before it returned |
    /// | `broadcast.scheduled` | listener calls scheduled on their actors |
    /// | `broadcast.duration` | how long its synchronous part took |
    /// | `broadcast.main_thread` | whether it ran on the main thread |
    /// | `broadcast.sticky` | whether it was kept for later listeners |
    ///
    /// The line is written on the thread that made the broadcast, after its
    /// synchronous part, so the logger's metadata provider sees that task's
    /// task locals (a request's identifier, a trace's). When `level` is below
    /// the logger's level, nothing of the line is built.
    ///
    /// Available with the package's `Logging` trait.
    public struct LoggingBroadcastTap: BroadcastTap {
        private let logger: Logger
        private let level: Logger.Level

        /// Creates a tap that logs each broadcast and post to `logger`.
        ///
        /// - Parameters:
        ///   - logger: The logger the lines go to.
        ///   - level: The level of every line. The default, `debug`, is the
        ///     level swift-log asks libraries to use for an overview of what
        ///     they do; a line per broadcast is too many for `info`.
        public init(logger: Logger, level: Logger.Level = .debug) {
            self.logger = logger
            self.level = level
        }

        /// Logs `observation` as one line.
        public func observe(_ observation: BroadcastObservation) {
            logger.log(
                level: level, "\(observation.kind)",
                metadata: [
                    "broadcast.kind": .stringConvertible(observation.kind),
                    "broadcast.subject": .string(observation.subjectName),
                    "broadcast.called": .stringConvertible(observation.calledCount),
                    "broadcast.scheduled": .stringConvertible(observation.scheduledCount),
                    "broadcast.duration": .stringConvertible(observation.duration),
                    "broadcast.main_thread": .stringConvertible(observation.ranOnMainThread),
                    "broadcast.sticky": .stringConvertible(observation.isSticky),
                ])
        }
    }
#endif
