import Broadcast
import Testing

/// Listeners of a broadcast that passes two values.
protocol CommentListener: AnyObject {
    func commented(_ text: String, on post: Post)
}

final class CommentRecorder: CommentListener, Sendable {
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func commented(_ text: String, on post: Post) { log.record("\(name):\(text)@\(post.title)") }
}

/// A `PostCreationListener` that records its name with what it receives.
final class NamedPostRecorder: PostCreationListener, Sendable {
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func postCreated(_ post: Post) { log.record("\(name):\(post.title)") }
}

/// `broadcast(to:with:)` and its variants.
///
/// The payload is passed to a closure that captures nothing, and copied into
/// a closure only when a call is kept (scheduled on an actor, or recorded as
/// sticky). Every delivery rule is the same as for `broadcast(to:)`.
@Suite("Broadcasts with a payload", .timeLimit(.minutes(1)))
struct PayloadBroadcastTests {
    @Test func thePayloadReachesEveryListenerInRegistrationOrder() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let listeners = ["a", "b", "c"].map { NamedPostRecorder($0, log: log) }
        for listener in listeners { broadcaster.addListener(listener) }

        let made = broadcaster.broadcast(to: PostCreationListener.self, with: Post(title: "Hello")) {
            $0.postCreated($1)
        }

        #expect(made == 3)
        #expect(log.all == ["a:Hello", "b:Hello", "c:Hello"])
    }

    @Test func twoValuesTravelAsATuple() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let listener = CommentRecorder("a", log: log)
        broadcaster.addListener(listener)

        let made = broadcaster.broadcast(to: CommentListener.self, with: ("Nice", Post(title: "Hello"))) {
            $0.commented($1.0, on: $1.1)
        }

        #expect(made == 1)
        #expect(log.all == ["a:Nice@Hello"])
    }

    @Test func aStickyBroadcastKeepsItsPayloadForLateListeners() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        broadcaster.broadcast(to: PostCreationListener.self, with: Post(title: "first"), sticky: true) {
            $0.postCreated($1)
        }
        broadcaster.broadcast(to: PostCreationListener.self, with: Post(title: "latest"), sticky: true) {
            $0.postCreated($1)
        }

        let late = NamedPostRecorder("late", log: log)
        broadcaster.addListener(late, receivingSticky: true)

        #expect(log.all == ["late:latest"])
    }

    @Test func aBackgroundBroadcastSchedulesThePayloadOnTheListenersActor() async {
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)

        let made = await Task.detached {
            var made = 0
            for title in ["one", "two", "three"] {
                made += broadcaster.broadcast(to: PostCreationListener.self, with: Post(title: title)) {
                    $0.postCreated($1)
                }
            }
            return made
        }.value
        await broadcaster.waitForScheduledDeliveries()

        #expect(made == 3)
        #expect(await screen.titles == ["one", "two", "three"])
        #expect(await screen.offMainQueueCalls == 0)
    }

    @MainActor @Test func onTheMainActorAMainActorListenerIsCalledBeforeTheBroadcastReturns() {
        let broadcaster = Broadcaster()
        let screen = Screen(broadcaster: broadcaster)
        _ = Bystander(broadcaster: broadcaster)

        let made = broadcaster.broadcast(to: PostCreationListener.self, with: Post(title: "direct")) {
            $0.postCreated($1)
        }

        #expect(made == 1)
        #expect(screen.titles == ["direct"])
    }

    @Test func aPayloadBroadcastFollowedByTheBarrierHasMadeEveryCall() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let plain = NamedPostRecorder("plain", log: log)
        broadcaster.addListener(plain)
        let screen = await Screen(broadcaster: broadcaster)

        let made = await Task.detached {
            broadcaster.broadcast(to: PostCreationListener.self, with: Post(title: "waited")) { $0.postCreated($1) }
        }.value
        await broadcaster.waitForScheduledDeliveries()

        #expect(made == 2)
        #expect(log.all == ["plain:waited"])
        #expect(await screen.titles == ["waited"])
    }

    @Test func broadcastOnMainActorWithAPayloadCallsEveryListenerOnTheMainActor() async {
        let broadcaster = Broadcaster()
        let spy = KeyboardSpy()
        broadcaster.addListener(spy)

        let made = await Task.detached {
            broadcaster.broadcastOnMainActor(to: KeyboardListener.self, with: 216.0) { $0.keyboardChanged(height: $1) }
        }.value
        await broadcaster.waitForScheduledDeliveries()
        let (madeOnMainActor, loggedBeforeReturning) = await MainActor.run {
            let made = broadcaster.broadcastOnMainActor(to: KeyboardListener.self, with: 0.0) {
                $0.keyboardChanged(height: $1)
            }
            return (made, spy.log.count)
        }

        #expect(made == 1)
        #expect(madeOnMainActor == 1)
        #expect(loggedBeforeReturning == 2)
        #expect(spy.log.all == ["216.0@main", "0.0@main"])
    }
}
