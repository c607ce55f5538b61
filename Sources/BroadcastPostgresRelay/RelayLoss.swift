#if PostgresRelay
    /// Events of another instance that this relay missed and could not read
    /// back: they were sent while it was not listening, and are no longer kept
    /// (see ``PostgresRelay/Configuration/recoveryWindow``), their statement
    /// never committed, or their sender's process ended before writing their
    /// rows (its mark, the latest number it notified, counts them).
    ///
    /// Every envelope an instance sends on a channel is numbered, 1, 2, 3…,
    /// so that a receiver accounts for each: received, read back after a gap,
    /// or reported here.
    public struct RelayLoss: Sendable, Hashable, CustomStringConvertible {
        /// The instance that sent them, as its ``PostgresRelay/instanceID``
        /// names it.
        public let instanceID: String
        /// Their numbers on the channel, every one of them lost.
        public let numbers: ClosedRange<UInt64>
        /// Whether they were posted in transactions of the app's
        /// (``PostgresRelay/post(_:inTransactionOn:)``), which an instance
        /// numbers apart from its other events, 1, 2, 3… on each channel.
        public let inTransactions: Bool

        /// The loss of `numbers` from `sender`, an instance or its
        /// transactions (``TransactionalNumbers/sender(_:)``).
        init(sender: String, numbers: ClosedRange<UInt64>) {
            let instance = TransactionalNumbers.instance(numberingAs: sender)
            instanceID = instance ?? sender
            inTransactions = instance != nil
            self.numbers = numbers
        }

        /// How many were lost.
        public var count: Int { numbers.count }

        /// A sentence for logs.
        public var description: String {
            let which =
                count == 1 ? "number \(numbers.lowerBound)" : "numbers \(numbers.lowerBound)...\(numbers.upperBound)"
            return "\(count) from instance \(instanceID)\(inTransactions ? "'s transactions" : "") (\(which))"
        }
    }
#endif
