#if PostgresRelay
    import Broadcast
    import Foundation

    /// Sends the `Event` values posted on the broadcaster, and posts the ones
    /// received on its channel.
    final class EventRoute<Event: Codable & Sendable>: RelayRoute {
        let channel: String
        let sticky: Bool
        private let context: RouteContext
        private let typeName = String(reflecting: Event.self)
        private let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            // Sorted, so that an event encodes to the same text wherever it is
            // encoded: a relay compares the texts to recognise its own posts.
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }()
        private let decoder = JSONDecoder()

        init(channel: String, sticky: Bool, context: RouteContext) {
            self.channel = channel
            self.sticky = sticky
            self.context = context
        }

        func startSending() -> BroadcastToken {
            context.broadcaster.addRelayHandler(for: Event.self) { [self] event in
                send(event)
            }
        }

        /// Called inside every post of an `Event` on the broadcaster, on the
        /// posting thread.
        private func send(_ event: Event) {
            let eventJSON: String
            do {
                eventJSON = try encode(event)
            } catch {
                report(.eventNotSent, .encodingFailed(error))
                return
            }
            let trail: RelayTrail
            if let crossing = RelayCrossing.current(
                instance: context.instance.id, eventType: ObjectIdentifier(Event.self), eventJSON: eventJSON)
            {
                // Received from this relay's database: every instance there has it.
                guard crossing.relay != context.relay else { return }
                // Received through another relay of this broadcaster: forwarded
                // along with where it has been.
                trail = crossing.trail
            } else {
                trail = RelayTrail(sequence: context.instance.nextSequence(), path: [context.instance.id])
            }
            let payload = trail.payload(eventJSON: eventJSON)
            let byteCount = payload.utf8.count
            guard byteCount <= context.payloadLimit else {
                report(.eventTooLarge, .payloadTooLarge(byteCount: byteCount, limit: context.payloadLimit))
                return
            }
            let notification = OutgoingNotification(channel: channel, payload: payload, typeName: typeName)
            switch context.outgoing.enqueue(notification) {
            case .enqueued:
                break
            case .full(let capacity):
                report(.eventNotSent, .outgoingBufferFull(capacity: capacity))
            case .closed:
                report(.eventNotSent, .relayStopped)
            }
        }

        func receive(_ payload: String) {
            let envelope: RelayEnvelope<Event>
            do {
                envelope = try decoder.decode(RelayEnvelope<Event>.self, from: Data(payload.utf8))
            } catch {
                report(.payloadSkipped, problem(with: payload, decodingError: error))
                return
            }
            guard envelope.v == RelayEnvelopeHeader.currentVersion else {
                report(.payloadSkipped, .unsupportedEnvelopeVersion(envelope.v))
                return
            }
            guard !envelope.path.contains(context.instance.id),
                envelope.path.isEmpty
                    || context.instance.recordPosting(origin: envelope.path[0], sequence: envelope.seq)
            else {
                context.reporter.counters.countEcho()
                return
            }
            let eventJSON: String
            do {
                eventJSON = try encode(envelope.event)
            } catch {
                // Without its text the relay's handler could not recognise the
                // event, and would send it back.
                report(.payloadSkipped, .encodingFailed(error))
                return
            }
            let crossing = RelayCrossing(
                instance: context.instance.id, relay: context.relay, eventType: ObjectIdentifier(Event.self),
                eventJSON: eventJSON,
                trail: RelayTrail(sequence: envelope.seq, path: envelope.path + [context.instance.id])
            )
            context.reporter.counters.countReceived()
            crossing.whileCrossing {
                _ = context.broadcaster.post(envelope.event, sticky: sticky, isolation: nil)
            }
        }

        private func encode(_ event: Event) throws -> String {
            String(decoding: try encoder.encode(event), as: UTF8.self)
        }

        /// Why a payload that did not decode as an envelope of `Event` was skipped.
        private func problem(with payload: String, decodingError: any Error) -> PostgresRelayError {
            let header: RelayEnvelopeHeader
            do {
                header = try decoder.decode(RelayEnvelopeHeader.self, from: Data(payload.utf8))
            } catch {
                return .notAnEnvelope(payload: String(payload.prefix(200)), underlying: error)
            }
            guard header.v == RelayEnvelopeHeader.currentVersion else {
                return .unsupportedEnvelopeVersion(header.v)
            }
            return .eventNotDecodable(decodingError)
        }

        private func report(_ kind: RelayReport.Kind, _ error: PostgresRelayError) {
            context.reporter.report(RelayReport(kind, channel: channel, typeName: typeName, error: error))
        }
    }
#endif
