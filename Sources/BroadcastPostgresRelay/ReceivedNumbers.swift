#if PostgresRelay
    /// The latest envelope number a route took from each sender on its
    /// channel, to tell the next envelope from a duplicate and from one that
    /// follows envelopes it missed (see ``EventLog``).
    struct ReceivedNumbers: Sendable {
        /// The latest number taken from each sender.
        private(set) var latest: [String: UInt64] = [:]
        /// Whether the account has started: at the relay's first listen, from
        /// the numbers the table holds then.
        private(set) var isStarted = false
        /// Each sender's mark (``NotifiedMarks``) when the account started:
        /// the numbers up to it were notified before the relay first
        /// listened (or received live), and are not its to report lost.
        private(set) var markedAtStart: [String: UInt64] = [:]

        /// What an envelope received live is.
        enum Live: Equatable {
            /// The next of its sender, or number 1 of a sender first heard
            /// from: taken.
            case next
            /// Taken already (sent again after an interrupted statement, or
            /// read back from the table): skipped.
            case duplicate
            /// After numbers not taken: not taken either, until those are read
            /// back or reported lost (``closeMissed(_:from:)``).
            case missed(ClosedRange<UInt64>)
            /// A number above 1 of a sender first heard from since the
            /// account started: the numbers before it were sent while the
            /// relay did not listen (it reconnected), or before it first
            /// listened, or are pruned. Not taken until the table was read
            /// (``startFirstHeard(_:before:)``).
            case firstHeard(ClosedRange<UInt64>)
        }

        /// Starts the account where the table's rows end: events sent before
        /// the relay first listened are not its to post, nor to report lost.
        mutating func start(at latest: [String: UInt64], marked: [String: UInt64] = [:]) {
            self.latest.merge(latest) { taken, kept in max(taken, kept) }
            markedAtStart = marked
            isStarted = true
        }

        /// The numbers of each sender that its mark in `marks` counts beyond
        /// those taken, and beyond its mark when the account started:
        /// notified while the relay did not listen, their rows not read yet,
        /// maybe not written.
        ///
        /// A sender never heard from, and not marked when the account
        /// started, started sending since: it is counted from 1, as
        /// ``takeRecovered(_:from:)`` counts one first heard from in the
        /// table.
        func unwritten(marked marks: [String: UInt64]) -> [(sender: String, numbers: ClosedRange<UInt64>)] {
            marks.keys.sorted().compactMap { sender in
                guard let mark = marks[sender] else { return nil }
                let first = max(latest[sender] ?? 0, markedAtStart[sender] ?? 0) + 1
                return first <= mark ? (sender, first...mark) : nil
            }
        }

        /// Takes `number` from `sender`, received live, unless it is a
        /// duplicate or numbers before it are missing.
        mutating func takeLive(_ number: UInt64, from sender: String) -> Live {
            guard let taken = latest[sender] else {
                if isStarted, number > 1 { return .firstHeard(1...number - 1) }
                latest[sender] = number
                return .next
            }
            if number <= taken { return .duplicate }
            if number > taken + 1 { return .missed(taken + 1...number - 1) }
            latest[sender] = number
            return .next
        }

        /// The numbers of `sender` to read from the table, up to `number`.
        ///
        /// `number` was received live as a notification that names its
        /// envelope there (`"stored":true`); nil if it was taken already. Nothing is taken
        /// until the rows are read (``takeRecovered(_:from:)``); a sender
        /// first heard from since the account started is read from 1, as
        /// ``takeLive(_:from:)`` reads it (`isFirstHeard`), one heard from
        /// before the account started from `number`.
        mutating func unreadThrough(_ number: UInt64, from sender: String)
            -> (numbers: ClosedRange<UInt64>, isFirstHeard: Bool)?
        {
            guard let taken = latest[sender] else {
                if isStarted, number > 1 { return (1...number, true) }
                latest[sender] = max(number, 1) - 1
                return (number...number, false)
            }
            return number > taken ? (taken + 1...number, false) : nil
        }

        /// Takes `number` from `sender`, read back from the table: nil if it
        /// was taken already; otherwise the numbers before it that were not
        /// taken and never will be (nil if none), since rows are read in order.
        ///
        /// A sender first heard from in the table is counted from 1: it
        /// started sending while the relay was not listening.
        mutating func takeRecovered(_ number: UInt64, from sender: String) -> ClosedRange<UInt64>?? {
            let taken = latest[sender] ?? 0
            if number <= taken { return nil }
            latest[sender] = number
            return .some(number > taken + 1 ? taken + 1...number - 1 : nil)
        }

        /// Starts the account of `sender`, first heard of through its
        /// heartbeat, just before `first`, the first of its numbers the table
        /// keeps, unless it was heard from meanwhile: the numbers before were
        /// sent before this relay first listened, or are no longer kept, and
        /// are neither posted nor reported.
        mutating func startFirstHeard(_ sender: String, before first: UInt64) {
            if latest[sender] == nil { latest[sender] = first - 1 }
        }

        /// Ends the wait for `missed` from `sender`, once the table was read:
        /// the numbers in it still not taken, now reported lost (nil if
        /// none); the account moves past them.
        mutating func closeMissed(_ missed: ClosedRange<UInt64>, from sender: String) -> ClosedRange<UInt64>? {
            let taken = latest[sender] ?? 0
            guard taken < missed.upperBound else { return nil }
            latest[sender] = missed.upperBound
            return max(taken + 1, missed.lowerBound)...missed.upperBound
        }
    }
#endif
