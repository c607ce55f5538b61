import Broadcast
import Testing

/// The package post that passes over one closure handler: the PostgreSQL
/// relay posts each event it received so, past its own handler, which sends
/// to the database what is posted here, so that the event is not sent back
/// while a listener's reply is.
@Suite("A post that skips one handler", .timeLimit(.minutes(1)))
struct SkippingPostTests {
    struct Note: Sendable, Equatable { let text: String }

    final class NoteSpy: EventListener, Sendable {
        let name: String
        let log: Locked<[String]>

        init(_ name: String, log: Locked<[String]>) {
            self.name = name
            self.log = log
        }

        func receive(_ event: Note) {
            log.withLock { $0.append("\(name):\(event.text)") }
        }
    }

    private static func handler(
        _ name: String, on broadcaster: Broadcaster, log: Locked<[String]>
    ) -> BroadcastToken {
        broadcaster.addHandler(for: Note.self) { note in log.withLock { $0.append("\(name):\(note.text)") } }
    }

    @Test func itReachesEveryOtherListenerInRegistrationOrderAndNotTheSkippedHandler() {
        let broadcaster = Broadcaster()
        let log = Locked<[String]>([])
        let first = Self.handler("first", on: broadcaster, log: log)
        let object = NoteSpy("object", log: log)
        broadcaster.addListener(object)
        let (skippedToken, skipped) = broadcaster.addSkippableHandler(for: Note.self) { note in
            log.withLock { $0.append("skipped:\(note.text)") }
        }
        let last = Self.handler("last", on: broadcaster, log: log)
        // Twice: an object is called through a cast the first time, through
        // its typed call (an adapter) after.
        broadcaster.post(Note(text: "1"), skipping: skipped)
        broadcaster.post(Note(text: "2"), skipping: skipped)
        broadcaster.post(Note(text: "3"))
        #expect(
            log.withLock { $0 } == [
                "first:1", "object:1", "last:1", "first:2", "object:2", "last:2",
                "first:3", "object:3", "skipped:3", "last:3",
            ])
        withExtendedLifetime((first, object, skippedToken, last)) {}
    }

    /// A listener's reply, identical to the event or not, is a post of its own.
    @Test(arguments: [false, true])
    func aPostMadeInsideItReachesTheSkippedHandler(repliesIdentically: Bool) {
        let broadcaster = Broadcaster()
        let log = Locked<[String]>([])
        let replied = Locked(false)
        let replier = broadcaster.addHandler(for: Note.self) { [broadcaster] _ in
            // Once: a reply reaches this handler too.
            guard !replied.withLock({ $0 }) else { return }
            replied.withLock { $0 = true }
            broadcaster.post(Note(text: repliesIdentically ? "event" : "reply"))
        }
        let (skippedToken, skipped) = broadcaster.addSkippableHandler(for: Note.self) { note in
            log.withLock { $0.append(note.text) }
        }
        broadcaster.post(Note(text: "event"), skipping: skipped)
        #expect(log.withLock { $0 } == [repliesIdentically ? "event" : "reply"])
        withExtendedLifetime((replier, skippedToken)) {}
    }
}
