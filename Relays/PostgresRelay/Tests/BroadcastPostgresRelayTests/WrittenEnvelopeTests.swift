import Foundation
import Testing

@testable import BroadcastPostgresRelay

/// The envelopes a relay reads from their text, without `JSONDecoder`.
///
/// Every envelope a relay writes is read so, its own come back too; any other
/// payload is decoded whole. A reader that took another layout for this one
/// would post a wrong event, or drop another instance's as its own.
@Suite struct WrittenEnvelopeTests {
    static let own = "00000000000000aa"
    static let other = "00000000000000bb"

    @Test func everyEnvelopeARelayWritesIsReadBackAsWritten() throws {
        let events = [#"{"text":"x"}"#, #"{"a":[1,{"b":"}"}],"text":"\"event\":{}"}"#, "{}", "42"]
        let paths = [[Self.own], [Self.other, Self.own], [Self.own, Self.other, "0123456789abcdef"]]
        for sequence: UInt64 in [0, 1, 42, .max] {
            for path in paths {
                let trail = RelayTrail(sequence: sequence, path: path)
                for event in events {
                    let read = try #require(WrittenEnvelope(reading: trail.payload(eventJSON: event)))
                    #expect(read.trail == trail)
                    #expect(read.eventJSON == Substring(event))
                }
                let cleared = try #require(WrittenEnvelope(reading: trail.clearedPayload()))
                #expect(cleared.trail == trail)
                #expect(cleared.eventJSON == nil)
                #expect(cleared.number == nil)
                for number: UInt64 in [1, 9, 10, .max] {
                    let numbered = try #require(
                        WrittenEnvelope(reading: trail.payload(eventJSON: "{}", number: number)))
                    #expect(numbered.trail == trail)
                    #expect(numbered.number == number)
                    #expect(numbered.eventJSON == "{}")
                    let numberedClear = try #require(WrittenEnvelope(reading: trail.clearedPayload(number: number)))
                    #expect(numberedClear.number == number)
                    #expect(!numberedClear.isStored && !numbered.isStored)
                    let stored = try #require(WrittenEnvelope(reading: trail.storedPayload(number: number)))
                    #expect(stored.trail == trail)
                    #expect(stored.number == number)
                    #expect(stored.isStored)
                    #expect(stored.eventJSON == nil)
                }
            }
        }
    }

    /// What is read agrees with `JSONDecoder` reading the whole envelope.
    @Test func whatIsReadIsWhatDecodingTheWholeEnvelopeGives() throws {
        struct Event: Codable, Equatable {
            let text: String
            let numbers: [Int]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let event = Event(text: #"a "quoted" } brace, and "event":{ too"#, numbers: [1, 2])
        let eventJSON = String(decoding: try encoder.encode(event), as: UTF8.self)
        let payload = RelayTrail(sequence: 7, path: [Self.other, Self.own]).payload(eventJSON: eventJSON)
        let read = try #require(WrittenEnvelope(reading: payload))
        let decoded = try JSONDecoder().decode(RelayEnvelope<Event>.self, from: Data(payload.utf8))
        #expect(read.trail == decoded.trail)
        #expect(try JSONDecoder().decode(Event.self, from: Data(try #require(read.eventJSON).utf8)) == decoded.event)
    }

    @Test func aPayloadLaidOutOtherwiseIsNotRead() {
        let path = #"["\#(Self.own)"]"#
        let payloads = [
            // Another version; a sequence number missing, with a leading zero,
            // negative, fractional, or too large for a UInt64.
            #"{"v":2,"seq":1,"path":\#(path),"event":{}}"#,
            // A channel number missing, with a leading zero, or negative.
            #"{"v":1,"seq":1,"n":,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":1,"n":01,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":1,"n":-1,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":01,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":-1,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":1.5,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":18446744073709551616,"path":\#(path),"event":{}}"#,
            // Another key order, spaces.
            #"{"seq":1,"v":1,"path":\#(path),"event":{}}"#,
            #"{ "v":1,"seq":1,"path":\#(path),"event":{}}"#,
            #"{"v":1,"seq":1,"path":\#(path), "event":{}}"#,
            // A path empty, not of lowercase hexadecimal digits, with an empty
            // or escaped identifier, or unclosed.
            #"{"v":1,"seq":1,"path":[],"event":{}}"#,
            #"{"v":1,"seq":1,"path":["00000000000000AA"],"event":{}}"#,
            #"{"v":1,"seq":1,"path":[""],"event":{}}"#,
            #"{"v":1,"seq":1,"path":["\u0030"],"event":{}}"#,
            #"{"v":1,"seq":1,"path":["\#(Self.own)",],"event":{}}"#,
            #"{"v":1,"seq":1,"path":["\#(Self.own)""#,
            // No event, another field, a state not cleared. (An event's own
            // JSON is left to the decoder.)
            #"{"v":1,"seq":1,"path":\#(path)}"#,
            #"{"v":1,"seq":1,"path":\#(path),"other":{}}"#,
            #"{"v":1,"seq":1,"path":\#(path),"cleared":false}"#,
            #"{"v":1,"seq":1,"path":\#(path),"cleared":true,"event":{}}"#,
            "", "{", Self.own,
        ]
        for payload in payloads {
            #expect(WrittenEnvelope(reading: payload) == nil, "\(payload)")
        }
    }
}
