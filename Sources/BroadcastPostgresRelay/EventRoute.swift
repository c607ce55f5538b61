#if PostgresRelay
    import Broadcast
    import Foundation
    import NIOConcurrencyHelpers

    /// Sends the `Event` values posted on the broadcaster, and posts the ones
    /// received on its channel.
    final class EventRoute<Event: Codable & Sendable>: RelayRoute {
        let channel: String
        let sticky: Bool
        let context: RouteContext
        /// Shared with the other routes of the channel on this instance.
        private let deliveryLine: DeliveryLine
        private let typeName = String(reflecting: Event.self)
        private let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            // Sorted, so that an event encodes to the same text wherever it is
            // encoded: a relay compares the texts to recognise its own posts.
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }()
        private let decoder = JSONDecoder()
        /// For a sticky type: the number of this instance's latest change
        /// sent, and the JSON of the latest state received and posted (see
        /// ``isOwnLatestChangeToRestore(_:_:)``).
        private let changes = NIOLockedValueBox(Changes())
        /// For a type that is not sticky: the handler that sends its posts,
        /// which a post of a received event passes over (see
        /// ``RelayCrossing``); set once it is registered.
        private let sendingHandler = NIOLockedValueBox<SkippableHandler?>(nil)
        /// For a type that is not sticky: the latest number taken from each
        /// sender on the channel.
        private let numbers = NIOLockedValueBox(ReceivedNumbers())

        private struct Changes {
            var latestOwnSequence: UInt64?
            var latestReceivedJSON: String?
        }

        init(channel: String, sticky: Bool, context: RouteContext) {
            self.channel = channel
            self.sticky = sticky
            self.context = context
            deliveryLine = context.instance.deliveryLine(for: channel)
            context.instance.addRoute(of: ObjectIdentifier(Event.self))
        }

        deinit {
            context.instance.removeRoute(of: ObjectIdentifier(Event.self))
        }

        func startSending() -> BroadcastToken {
            guard sticky else {
                // Weakly: the route keeps its handler (for the post that skips
                // it), and the handler would keep the route, and its
                // broadcaster, for the life of the process.
                let (token, skippable) = context.broadcaster.addRelayHandler(for: Event.self) { [weak self] event in
                    self?.send(event)
                }
                sendingHandler.withLockedValue { $0 = skippable }
                return token
            }
            // A sticky type's state is relayed: each change of it, whichever
            // call made it, and not the posts made without `sticky: true`.
            return context.broadcaster.observeStickyEventChanges(of: Event.self) { [self] change in
                switch change {
                case .set(let event): send(event)
                case .cleared: sendCleared()
                }
            }
        }

        /// Called inside every post of an `Event` on the broadcaster (or,
        /// for a sticky type, every change of its sticky state), on the
        /// posting thread.
        private func send(_ event: Event) {
            let eventJSON: String
            do {
                eventJSON = try encode(event)
            } catch {
                report(.eventNotSent, .encodingFailed(error))
                return
            }
            send(eventJSON, payload: { $0.payload(eventJSON: eventJSON, number: $1, trace: $2) })
        }

        /// Called where the sticky `Event` was cleared.
        private func sendCleared() {
            send(Self.clearedMarker, payload: { $0.clearedPayload(number: $1, trace: $2) })
        }

        /// Sends the envelope `payload` makes along this instance's trail,
        /// with its number on the channel and the posting task's trace
        /// context, unless the state `stateJSON` was received from this
        /// relay's database.
        private func send(_ stateJSON: String, payload makePayload: (RelayTrail, UInt64, TraceCarrier?) -> String) {
            let trail: RelayTrail
            if let crossing = RelayCrossing.call(
                of: context.relay, instance: context.instance.id, eventType: ObjectIdentifier(Event.self),
                eventJSON: stateJSON)
            {
                // Received from this relay's database: every instance there has it.
                guard crossing.relay != context.relay else { return }
                // Received through another relay of this broadcaster: forwarded
                // along with where it has been.
                trail = crossing.trail
            } else {
                trail = RelayTrail(sequence: context.instance.nextSequence(), path: [context.instance.id])
                if sticky {
                    changes.withLockedValue { $0.latestOwnSequence = max($0.latestOwnSequence ?? 0, trail.sequence) }
                }
            }
            // Read on the posting thread, before the lock: a received event
            // forwarded through another relay is posted inside the context
            // its envelope carried, and takes it along.
            let trace = TraceCarrier.current()
            // A sticky state travels in its notification: the sticky table
            // keeps only the latest, which a receiver may not find any more.
            let limit = sticky ? min(context.payloadLimit, context.notificationLimit) : context.payloadLimit
            let enqueued = context.outgoing.enqueue(
                channel: channel, typeName: typeName, keepsState: sticky, limit: limit,
                notificationLimit: context.notificationLimit, payload: { makePayload(trail, $0, trace) },
                reference: sticky ? nil : { trail.storedPayload(number: $0) })
            switch enqueued {
            case .enqueued:
                break
            case .tooLarge(let byteCount):
                report(.eventTooLarge, .payloadTooLarge(byteCount: byteCount, limit: limit))
            case .full(let capacity):
                report(.eventNotSent, .outgoingBufferFull(capacity: capacity))
            case .closed:
                report(.eventNotSent, .relayStopped)
            }
        }

        func receive(_ payload: String) -> MissedEnvelopes? {
            let written = WrittenEnvelope(reading: payload)
            // This instance's own events are not counted, but for those posted
            // in a transaction, which come back to be posted here too.
            if !sticky, let written, written.isTransactional || written.trail.path.first != context.instance.id,
                let number = written.number, let sender = written.numberingSender
            {
                if written.isStored {
                    // Its envelope is read from the table, with any before it
                    // that were missed.
                    guard let unread = numbers.withLockedValue({ $0.unreadThrough(number, from: sender) }) else {
                        context.reporter.counters.countEcho()
                        return nil
                    }
                    return MissedEnvelopes(
                        sender: sender, numbers: unread.numbers, payload: nil, isFirstHeard: unread.isFirstHeard)
                }
                switch numbers.withLockedValue({ $0.takeLive(number, from: sender) }) {
                case .next:
                    break
                case .duplicate:
                    context.reporter.counters.countEcho()
                    return nil
                case .missed(let missing):
                    return MissedEnvelopes(sender: sender, numbers: missing, payload: payload)
                case .firstHeard(let before):
                    return MissedEnvelopes(sender: sender, numbers: before, payload: payload, isFirstHeard: true)
                }
            }
            post(payload, written: written)
            return nil
        }

        var receivedNumbers: [String: UInt64]? {
            guard !sticky else { return nil }
            return numbers.withLockedValue { $0.isStarted ? $0.latest : nil }
        }

        func unread(upTo written: UInt64, from sender: String) -> MissedEnvelopes? {
            guard !sticky, written > 0 else { return nil }
            return numbers.withLockedValue { numbers in
                guard numbers.isStarted else { return nil }
                guard let taken = numbers.latest[sender] else {
                    return MissedEnvelopes(sender: sender, numbers: 1...written, payload: nil, isFirstHeard: true)
                }
                guard taken < written else { return nil }
                return MissedEnvelopes(sender: sender, numbers: taken + 1...written, payload: nil)
            }
        }

        func startAccount(at latest: [String: UInt64], marked: [String: UInt64]) {
            numbers.withLockedValue { $0.start(at: latest, marked: marked) }
        }

        func unwritten(marked marks: [String: UInt64]) -> [MissedEnvelopes] {
            guard !sticky else { return [] }
            return numbers.withLockedValue { $0.unwritten(marked: marks) }.map {
                MissedEnvelopes(sender: $0.sender, numbers: $0.numbers, payload: nil)
            }
        }

        func recover(_ rows: [LoggedEnvelope], missed: MissedEnvelopes?) {
            if let missed, missed.isFirstHeard {
                let first = rows.first?.number ?? missed.numbers.upperBound + 1
                numbers.withLockedValue { $0.startFirstHeard(missed.sender, before: first) }
            }
            for row in rows {
                guard let lost = numbers.withLockedValue({ $0.takeRecovered(row.number, from: row.sender) }) else {
                    continue
                }
                if let lost { reportLost(lost, from: row.sender) }
                context.reporter.counters.countRecovered()
                post(row.payload, written: WrittenEnvelope(reading: row.payload))
            }
            guard let missed else { return }
            if let lost = numbers.withLockedValue({ $0.closeMissed(missed.numbers, from: missed.sender) }) {
                reportLost(lost, from: missed.sender)
            }
            if let payload = missed.payload, let next = receive(payload) {
                // Cannot be: the account is past the numbers before it.
                reportLost(next.numbers, from: next.sender)
            }
        }

        private func reportLost(_ lost: ClosedRange<UInt64>, from sender: String) {
            context.reporter.report(
                RelayReport(
                    .eventsLost, channel: channel, typeName: typeName,
                    loss: RelayLoss(sender: sender, numbers: lost)))
        }

        /// Posts the envelope `payload` carries (`written` if it is laid out
        /// as a relay writes it), unless it is this instance's own.
        private func post(_ payload: String, written: WrittenEnvelope?) {
            // This instance's own events come back to it: each is skipped
            // without decoding its event. A sticky type's own changes are read
            // (``isOwnLatestChangeToRestore(_:_:)``).
            if !sticky, let written {
                let isOwn = written.trail.path.first == context.instance.id
                if isOwn, !written.isTransactional {
                    context.reporter.counters.countEcho()
                    return
                }
                // Another instance's event, or this one's committed in a
                // transaction, as a relay writes it: only the event is decoded
                // (an event that does not decode is decoded again below, for
                // the skip's report).
                if let eventJSON = written.eventJSON, let event = decodedEvent(eventJSON) {
                    let state = State(event: event, json: nil, trace: written.trace)
                    deliverInOrder(state, receivedAlong: written.trail, committedHere: isOwn)
                    return
                }
            }
            guard let (trail, state) = decode(payload, written: written) else { return }
            deliverInOrder(state, receivedAlong: trail, committedHere: false)
        }

        private func deliverInOrder(_ state: State, receivedAlong trail: RelayTrail, committedHere: Bool) {
            deliveryLine.deliverInOrder { [self] in
                if committedHere {
                    deliverCommitted(state, postedAlong: trail)
                } else {
                    deliver(state, receivedAlong: trail)
                }
            }
        }

        /// Posts `state`, posted here in a transaction along `trail`, now
        /// that the transaction committed, unless it was posted already (by
        /// another relay of this broadcaster on the same database); runs in
        /// its turn on the channel's ``DeliveryLine``.
        private func deliverCommitted(_ state: State, postedAlong trail: RelayTrail) {
            guard context.instance.recordPosting(origin: context.instance.id, sequence: trail.sequence) else {
                context.reporter.counters.countEcho()
                return
            }
            context.reporter.counters.countReceived()
            apply(state, trail: trail)
        }

        /// Posts `state`, received along `trail`, unless it was posted here
        /// already; runs in its turn on the channel's ``DeliveryLine``.
        private func deliver(_ state: State, receivedAlong trail: RelayTrail) {
            let seenHere =
                trail.path.contains(context.instance.id)
                || !(trail.path.isEmpty
                    || context.instance.recordPosting(origin: trail.path[0], sequence: trail.sequence))
            if seenHere {
                guard sticky, isOwnLatestChangeToRestore(trail, state) else {
                    context.reporter.counters.countEcho()
                    return
                }
                context.reporter.counters.countReceived()
                apply(state, trail: trail)
                return
            }
            context.reporter.counters.countReceived()
            if sticky { changes.withLockedValue { $0.latestReceivedJSON = state.json } }
            apply(state, trail: RelayTrail(sequence: trail.sequence, path: trail.path + [context.instance.id]))
        }

        /// Whether `state`, this instance's own change come back along `trail`,
        /// is to be posted again.
        ///
        /// Notifications arrive in commit order, this instance's own too. A
        /// state received after this instance's latest change and before that
        /// change came back was committed before it: the change, committed
        /// last, is the state again, so that every instance ends on the last
        /// state committed. So the latest change is posted again when the
        /// broadcaster holds the state received last instead. Otherwise an own
        /// change coming back is not posted: not an older one while a newer is
        /// on its way (the state would go back and forth), nor one taken
        /// here since (a take is local).
        private func isOwnLatestChangeToRestore(_ trail: RelayTrail, _ state: State) -> Bool {
            guard trail.path.first == context.instance.id else { return false }
            let (latestOwn, latestReceived) = changes.withLockedValue { ($0.latestOwnSequence, $0.latestReceivedJSON) }
            guard latestOwn == trail.sequence, let latestReceived else { return false }
            let current = currentStateJSON()
            return current == latestReceived && current != state.json
        }

        func restore(_ payload: String) async {
            guard sticky, let (trail, state) = decode(payload, written: WrittenEnvelope(reading: payload)) else {
                return
            }
            // Waited for: the state is posted before the relay reports that it
            // listens.
            await deliveryLine.deliverInOrderAndWait { [self] in
                restore(state, readAlong: trail)
            }
        }

        /// Posts `state`, read from the sticky table along `trail`, unless the
        /// broadcaster holds it already; runs in its turn on the channel.
        private func restore(_ state: State, readAlong trail: RelayTrail) {
            // Marked as posted here, so that its notification, if it arrives
            // after this read, is not posted a second time.
            if let origin = trail.path.first {
                _ = context.instance.recordPosting(origin: origin, sequence: trail.sequence)
            }
            guard state.json != currentStateJSON() else { return }
            context.reporter.counters.countReceived()
            changes.withLockedValue { $0.latestReceivedJSON = state.json }
            let path = trail.path.contains(context.instance.id) ? trail.path : trail.path + [context.instance.id]
            apply(state, trail: RelayTrail(sequence: trail.sequence, path: path))
        }

        /// An envelope's state: its event, or, for a cleared sticky state, no
        /// event; and for a sticky type, whose states are compared, that
        /// event's JSON as the handler encodes it, or ``clearedMarker``.
        private struct State: Sendable {
            let event: Event?
            let json: String?
            /// The trace context the envelope carried, posted in.
            var trace: TraceCarrier? = nil
        }

        /// The trail and the state of the envelope `payload` carries, `written`
        /// if it is laid out as a relay writes it; nil, having reported the
        /// payload skipped, if it carries none this route can post.
        private func decode(_ payload: String, written: WrittenEnvelope?) -> (RelayTrail, State)? {
            let event: Event?
            let envelope: RelayEnvelope<Event>
            do {
                // A payload not laid out as a relay writes it, or whose event
                // did not decode so, is decoded whole: for the error the skip
                // reports.
                envelope =
                    try written.flatMap(read) ?? decoder.decode(RelayEnvelope<Event>.self, from: Data(payload.utf8))
                guard envelope.v == RelayEnvelopeHeader.currentVersion else {
                    report(.payloadSkipped, .unsupportedEnvelopeVersion(envelope.v))
                    return nil
                }
                event = try envelope.state()
                // Only a sticky type has a state to clear.
                if event == nil, !sticky { throw RelayEnvelope<Event>.MissingEvent() }
            } catch {
                report(.payloadSkipped, problem(with: payload, decodingError: error))
                return nil
            }
            guard var state = state(event) else { return nil }
            state.trace = envelope.trace.map(TraceCarrier.init(values:))
            return (envelope.trail, state)
        }

        /// The envelope `written` is, with its event decoded from the JSON it
        /// carries; nil if that does not decode.
        private func read(_ written: WrittenEnvelope) -> RelayEnvelope<Event>? {
            guard !written.isStored else { return nil }
            let event: Event?
            if let eventJSON = written.eventJSON {
                guard let decoded = decodedEvent(eventJSON) else { return nil }
                event = decoded
            } else {
                event = nil
            }
            return RelayEnvelope(
                v: RelayEnvelopeHeader.currentVersion, seq: written.trail.sequence, n: written.number,
                tx: written.isTransactional ? true : nil, path: written.trail.path, trace: written.trace?.values,
                event: event, cleared: event == nil ? true : nil)
        }

        /// The event `eventJSON` encodes; nil if it does not decode as one.
        private func decodedEvent(_ eventJSON: Substring) -> Event? {
            try? decoder.decode(Event.self, from: Data(eventJSON.utf8))
        }

        /// `event`, or a cleared state if nil, as a ``State``; nil, having
        /// reported the payload skipped, if a sticky `event` does not encode.
        private func state(_ event: Event?) -> State? {
            guard sticky else { return State(event: event, json: nil) }
            guard let event else { return State(event: nil, json: Self.clearedMarker) }
            do {
                return State(event: event, json: try encode(event))
            } catch {
                // Without its text the relay's observer could not recognise the
                // state, and would send it back.
                report(.payloadSkipped, .encodingFailed(error))
                return nil
            }
        }

        /// Posts `state` on the broadcaster (sticky, for a sticky type), or
        /// clears the sticky `Event`, as received along `trail`.
        private func apply(_ state: State, trail: RelayTrail) {
            TraceCarrier.whileIn(state.trace) { applyInContext(state, trail: trail) }
        }

        private func applyInContext(_ state: State, trail: RelayTrail) {
            let skipped = sendingHandler.withLockedValue { $0 }
            if skipped != nil, context.instance.isOnlyRoute(of: ObjectIdentifier(Event.self)) {
                // No other relay's handler is called for the event, and every
                // call this relay's handler gets is a reply: no crossing to
                // record for a handler to find.
                post(state, skipping: skipped)
                return
            }
            let crossing = RelayCrossing(
                instance: context.instance.id, relay: context.relay, eventType: ObjectIdentifier(Event.self),
                trail: trail, skipsOwnHandler: skipped != nil,
                eventJSON: { [self] in state.json ?? state.event.flatMap { try? encode($0) } })
            crossing.whileCrossing { post(state, skipping: skipped) }
        }

        /// Posts `state`'s event, past `skipped` if given, or clears the
        /// sticky `Event`.
        private func post(_ state: State, skipping skipped: SkippableHandler?) {
            switch (state.event, skipped) {
            case (let event?, let skipped?):
                context.broadcaster.post(event, skipping: skipped, isolation: nil)
            case (let event?, nil):
                _ = context.broadcaster.post(event, sticky: sticky, isolation: nil)
            case (nil, _):
                context.broadcaster.clearStickyEvent(for: Event.self)
            }
        }

        /// The JSON of the sticky `Event` the broadcaster keeps now, or
        /// ``clearedMarker`` if it keeps none.
        private func currentStateJSON() -> String {
            guard let current = context.broadcaster.stickyEvent(for: Event.self) else { return Self.clearedMarker }
            return (try? encode(current)) ?? Self.clearedMarker
        }

        /// Stands for "no sticky state" where a state's JSON is compared: no
        /// JSON text is empty.
        private static var clearedMarker: String { "" }

        func encode(_ event: Event) throws -> String {
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
