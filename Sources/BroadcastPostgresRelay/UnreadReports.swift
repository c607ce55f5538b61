#if PostgresRelay
    import NIOCore

    /// The reports one stream of ``PostgresRelay/reports()`` keeps until its
    /// consumer reads them: at most `capacity`, read oldest first.
    ///
    /// When it is full, the oldest unread report of an event or a payload
    /// makes room, so that a flood of them (each event refused while the
    /// buffer of events to send is full, say) cannot push out a report of the
    /// connection, whose loss a consumer could not see in ``PostgresRelay/counts``
    /// alone (a `resumed` it acts on, for one). Only when every unread report
    /// is of the connection does the oldest of those make room.
    struct UnreadReports {
        let capacity: Int
        private var ofEvents = CircularBuffer<Numbered>()
        private var ofTheConnection = CircularBuffer<Numbered>()
        /// The number the next report appended gets: reading takes the lower of
        /// the two queues' first numbers, so reports are read in the order made.
        private var nextNumber = 0

        private struct Numbered {
            let number: Int
            let report: RelayReport
        }

        init(capacity: Int) {
            precondition(capacity > 0, "a stream keeps at least one report")
            self.capacity = capacity
        }

        var count: Int { ofEvents.count + ofTheConnection.count }

        /// Adds `report` after the others; returns the report dropped to make
        /// room, for the caller to release outside its lock.
        mutating func append(_ report: RelayReport) -> RelayReport? {
            var dropped: RelayReport?
            if count == capacity {
                dropped = (ofEvents.isEmpty ? ofTheConnection.removeFirst() : ofEvents.removeFirst()).report
            }
            let numbered = Numbered(number: nextNumber, report: report)
            nextNumber += 1
            if report.kind.isAboutTheConnection {
                ofTheConnection.append(numbered)
            } else {
                ofEvents.append(numbered)
            }
            return dropped
        }

        /// The oldest unread report, removed; `nil` if every report was read.
        mutating func removeOldest() -> RelayReport? {
            switch (ofEvents.first?.number, ofTheConnection.first?.number) {
            case (let event?, let connection?):
                event < connection ? ofEvents.removeFirst().report : ofTheConnection.removeFirst().report
            case (.some, nil):
                ofEvents.removeFirst().report
            case (nil, .some):
                ofTheConnection.removeFirst().report
            case (nil, nil):
                nil
            }
        }
    }

    extension RelayReport.Kind {
        /// Whether the report says what the connection did (listening, lost,
        /// resumed, failed to connect, stopped) rather than what became of one
        /// event or payload.
        var isAboutTheConnection: Bool {
            switch self {
            case .eventTooLarge, .eventNotSent, .eventMayBeLost, .eventsLost, .payloadSkipped: false
            default: true
            }
        }
    }
#endif
