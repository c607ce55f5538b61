#if PostgresRelay
    import Synchronization

    /// The relay's running counts, updated where each thing happens.
    final class RelayCounters: Sendable {
        private let sent = Atomic<Int>(0)
        private let received = Atomic<Int>(0)
        private let echoes = Atomic<Int>(0)
        private let notSent = Atomic<Int>(0)
        private let mayBeLost = Atomic<Int>(0)
        private let skipped = Atomic<Int>(0)
        private let gaps = Atomic<Int>(0)
        private let recovered = Atomic<Int>(0)
        private let lost = Atomic<Int>(0)

        func countSent(_ count: Int) { sent.add(count, ordering: .relaxed) }
        func countReceived() { received.add(1, ordering: .relaxed) }
        func countEcho() { echoes.add(1, ordering: .relaxed) }
        func countRecovered() { recovered.add(1, ordering: .relaxed) }

        /// Counts what `report` says went wrong.
        func count(_ report: RelayReport) {
            switch report.kind {
            case .eventTooLarge, .eventNotSent: notSent.add(1, ordering: .relaxed)
            case .eventMayBeLost: mayBeLost.add(1, ordering: .relaxed)
            case .payloadSkipped: skipped.add(1, ordering: .relaxed)
            case .resumed: gaps.add(1, ordering: .relaxed)
            case .eventsLost: lost.add(report.loss?.count ?? 0, ordering: .relaxed)
            default: break
            }
        }

        var snapshot: PostgresRelay.Counts {
            PostgresRelay.Counts(
                sent: sent.load(ordering: .relaxed), received: received.load(ordering: .relaxed),
                ignoredEchoes: echoes.load(ordering: .relaxed), notSent: notSent.load(ordering: .relaxed),
                mayBeLost: mayBeLost.load(ordering: .relaxed), skipped: skipped.load(ordering: .relaxed),
                gaps: gaps.load(ordering: .relaxed), recovered: recovered.load(ordering: .relaxed),
                lost: lost.load(ordering: .relaxed))
        }
    }
#endif
