#if Metrics
    import Broadcast
    import CoreMetrics
    import Synchronization

    /// A tap that counts and times every broadcast and post with swift-metrics.
    ///
    /// Give it to a broadcaster when you make it, or set it once:
    ///
    /// ```swift
    /// let broadcaster = Broadcaster(tap: MetricsBroadcastTap())
    /// ```
    ///
    /// Per listener protocol or event type and kind of call, it records:
    ///
    /// | metric | label | what it records |
    /// | --- | --- | --- |
    /// | `Counter` | `broadcasts` | one per broadcast or post |
    /// | `Timer` | `broadcast.duration` | the duration of its synchronous part |
    ///
    /// both with the dimensions `broadcast.kind` (`broadcast`, `post`, ...) and
    /// `broadcast.subject` (the protocol or event type). A subject's metrics
    /// are made by the factory at its first broadcast of each kind and kept
    /// for the tap's lifetime, so later broadcasts do not ask the factory.
    ///
    /// Available with the package's `Metrics` trait.
    public final class MetricsBroadcastTap: BroadcastTap {
        private let factory: any MetricsFactory
        private let instruments = Mutex<[InstrumentKey: Instruments]>([:])

        /// Creates a tap whose metrics come from `factory`.
        ///
        /// - Parameter factory: Makes the counters and timers. The default is
        ///   the factory `MetricsSystem` has when the tap is made, so make the
        ///   tap after bootstrapping the metrics system.
        public init(factory: any MetricsFactory = MetricsSystem.factory) {
            self.factory = factory
        }

        /// Counts `observation` and records its duration.
        public func observe(_ observation: BroadcastObservation) {
            let instruments = self.instruments(kind: observation.kind, subject: observation.subjectName)
            instruments.counter.increment()
            instruments.timer.recordNanoseconds(observation.duration.nanoseconds)
        }

        /// The metrics of a kind and subject: the kept ones, or new ones,
        /// made with no lock held, as the factory is the user's code.
        private func instruments(kind: BroadcastObservation.Kind, subject: String) -> Instruments {
            let key = InstrumentKey(kind: kind, subject: subject)
            if let kept = instruments.withLock({ $0[key] }) { return kept }
            let made = Instruments(kind: kind, subject: subject, factory: factory)
            // A racing first broadcast of the same key may have kept its own:
            // both have the same label and dimensions, and the first one kept
            // is used from now on.
            return instruments.withLock { kept in
                if let first = kept[key] { return first }
                kept[key] = made
                return made
            }
        }
    }

    /// What a tap keeps metrics for: a kind of call to a subject.
    private struct InstrumentKey: Hashable {
        let kind: BroadcastObservation.Kind
        let subject: String
    }

    /// The metrics of one kind of call to one subject.
    private struct Instruments: Sendable {
        let counter: Counter
        let timer: Timer

        init(kind: BroadcastObservation.Kind, subject: String, factory: any MetricsFactory) {
            let dimensions = [("broadcast.kind", kind.description), ("broadcast.subject", subject)]
            counter = Counter(label: "broadcasts", dimensions: dimensions, factory: factory)
            timer = Timer(label: "broadcast.duration", dimensions: dimensions, factory: factory)
        }
    }

    extension Duration {
        /// The duration in whole nanoseconds, as a timer records it.
        fileprivate var nanoseconds: Int64 {
            let (seconds, attoseconds) = components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }
    }
#endif
