#if Tracing
    import Broadcast
    import Tracing

    /// A tap that records a span for every broadcast and post with
    /// swift-distributed-tracing.
    ///
    /// Give it to a broadcaster when you make it, or set it once:
    ///
    /// ```swift
    /// let broadcaster = Broadcaster(tap: TracingBroadcastTap())
    /// ```
    ///
    /// Each span is named after the kind of call and its subject, as
    /// `post MyApp.UserLoggedIn` or `broadcast any MyApp.PostCreationListener`
    /// (`BroadcastObservation.subjectName`), is of kind
    /// `internal`, and covers the call's synchronous part: it starts when that
    /// part started and ends when it ended. Its parent is the
    /// `ServiceContext.current` of the code that made the call, so a broadcast
    /// made inside a request's span is a child of that span. Its attributes:
    ///
    /// | attribute | value |
    /// | --- | --- |
    /// | `broadcast.kind` | the kind of call (`broadcast`, `post`, ...) |
    /// | `broadcast.subject` | the listener protocol or event type |
    /// | `broadcast.called` | listeners called before it returned |
    /// | `broadcast.scheduled` | listener calls scheduled on their actors |
    /// | `broadcast.main_thread` | whether it ran on the main thread |
    /// | `broadcast.sticky` | whether it was kept for later listeners |
    ///
    /// The span is recorded once the call's synchronous part is over, so the
    /// spans that listeners start while they are called are not its children;
    /// calls scheduled on actors run after it ended.
    ///
    /// Available with the package's `Tracing` trait.
    public struct TracingBroadcastTap: BroadcastTap {
        private let tracer: any Tracer

        /// Creates a tap that records spans with `tracer`.
        ///
        /// - Parameter tracer: Starts and ends the spans. The default is the
        ///   tracer `InstrumentationSystem` has when the tap is made, so make
        ///   the tap after bootstrapping the instrumentation system.
        public init(tracer: any Tracer = InstrumentationSystem.tracer) {
            self.tracer = tracer
        }

        /// Records `observation` as a span that has ended.
        public func observe(_ observation: BroadcastObservation) {
            let end = DefaultTracerClock.now
            let span = tracer.startSpan(
                "\(observation.kind) \(observation.subjectName)",
                context: ServiceContext.current ?? .topLevel,
                ofKind: .internal,
                at: end.subtracting(observation.duration))
            if span.isRecording {
                span.attributes["broadcast.kind"] = observation.kind.description
                span.attributes["broadcast.subject"] = observation.subjectName
                span.attributes["broadcast.called"] = observation.calledCount
                span.attributes["broadcast.scheduled"] = observation.scheduledCount
                span.attributes["broadcast.main_thread"] = observation.ranOnMainThread
                span.attributes["broadcast.sticky"] = observation.isSticky
            }
            span.end(at: end)
        }
    }

    extension DefaultTracerClock.Instant {
        /// The instant `duration` before this one (the epoch at the latest).
        fileprivate func subtracting(_ duration: Duration) -> Self {
            let (seconds, attoseconds) = duration.components
            let nanoseconds = UInt64(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            return Self(nanosecondsSinceEpoch: nanosecondsSinceEpoch - min(nanoseconds, nanosecondsSinceEpoch))
        }
    }
#endif
