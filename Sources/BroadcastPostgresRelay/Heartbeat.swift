#if PostgresRelay
    import Foundation

    /// A relay's heartbeat, the payload of its health check on
    /// ``LiveInstances/channel``: its instance's identifier, and, per channel,
    /// the number up to which the table keeps its envelopes (``EventLog``).
    ///
    /// ```text
    /// 9f86d081884c7d65 {"chat":42}
    /// ```
    ///
    /// Rows are written after their notifications: a receiver that listened
    /// again after a gap, and read the table before the rows of the last
    /// envelopes it missed were written, learns from the next heartbeat that
    /// they exist, and reads them; those it still cannot read (beyond the
    /// recovery window) it reports lost. Without numbers (nothing written yet,
    /// or a relay that sends none), the payload is the identifier alone.
    struct Heartbeat: Equatable {
        let instanceID: String
        /// The latest number on each channel up to which every row of the
        /// sender is written (or never will be).
        let writtenNumbers: [String: UInt64]

        init(instanceID: String, writtenNumbers: [String: UInt64]) {
            self.instanceID = instanceID
            self.writtenNumbers = writtenNumbers
        }

        /// Reads `payload`; a payload with numbers that do not decode counts
        /// as its identifier alone.
        init(reading payload: String) {
            guard let space = payload.firstIndex(of: " ") else {
                self.init(instanceID: payload, writtenNumbers: [:])
                return
            }
            let numbers = try? JSONDecoder().decode(
                [String: UInt64].self, from: Data(payload[payload.index(after: space)...].utf8))
            self.init(instanceID: String(payload[..<space]), writtenNumbers: numbers ?? [:])
        }

        /// The payload.
        var payload: String {
            guard !writtenNumbers.isEmpty else { return instanceID }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let numbers = try? encoder.encode(writtenNumbers) else { return instanceID }
            return instanceID + " " + String(decoding: numbers, as: UTF8.self)
        }
    }
#endif
