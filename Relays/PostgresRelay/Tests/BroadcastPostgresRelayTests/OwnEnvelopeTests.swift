import Testing

@testable import BroadcastPostgresRelay

/// The envelopes an instance recognises as its own without decoding them.
///
/// Only an envelope it wrote, whose path starts with its identifier, is
/// skipped so; anything else is decoded, and a mistake here would drop
/// another instance's event.
@Suite struct OwnEnvelopeTests {
    static let own = "00000000000000aa"
    static let other = "00000000000000bb"

    @Test func anEnvelopeThisInstanceWroteIsItsOwn() {
        for sequence: UInt64 in [1, 42, .max] {
            let trail = RelayTrail(sequence: sequence, path: [Self.own])
            #expect(RelayTrail.isWritten(trail.payload(eventJSON: #"{"text":"x"}"#), byOrigin: Self.own))
            #expect(RelayTrail.isWritten(trail.clearedPayload(), byOrigin: Self.own))
        }
        // Forwarded on by another instance: still its own event.
        let forwarded = RelayTrail(sequence: 7, path: [Self.own, Self.other])
        #expect(RelayTrail.isWritten(forwarded.payload(eventJSON: "{}"), byOrigin: Self.own))
    }

    @Test func anyOtherPayloadIsNot() {
        let payloads = [
            // Another origin, and this instance only further along the path.
            RelayTrail(sequence: 1, path: [Self.other]).payload(eventJSON: "{}"),
            RelayTrail(sequence: 1, path: [Self.other, Self.own]).payload(eventJSON: "{}"),
            // An identifier that only starts like this instance's.
            RelayTrail(sequence: 1, path: [Self.own + "0"]).payload(eventJSON: "{}"),
            // Another version, no sequence number, another layout, not JSON.
            #"{"v":2,"seq":1,"path":["\#(Self.own)"],"event":{}}"#,
            #"{"v":1,"seq":,"path":["\#(Self.own)"],"event":{}}"#,
            #"{"seq":1,"v":1,"path":["\#(Self.own)"],"event":{}}"#,
            #"{ "v":1,"seq":1,"path":["\#(Self.own)"],"event":{}}"#,
            "", "{", Self.own,
        ]
        for payload in payloads {
            #expect(!RelayTrail.isWritten(payload, byOrigin: Self.own), "\(payload)")
        }
    }
}
