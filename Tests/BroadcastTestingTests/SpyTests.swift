import Broadcast
import BroadcastTesting
import Testing

/// A spy listener, its state in one recorder.
final class TaggedPostSpy: PostCreationListener, Sendable {
    let titles = BroadcastRecorder<String>()

    func postCreated(_ post: Post) { titles.record(post.title) }
}

/// A screen called on the main actor, wherever the broadcast runs.
@MainActor final class FeedScreen: @MainActor PostCreationListener {
    let titles = BroadcastRecorder<String>()

    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }

    func postCreated(_ post: Post) {
        MainActor.assertIsolated()
        titles.record(post.title)
    }
}

@Suite("A recorder in each kind of spy", .timeLimit(.minutes(1)))
struct SpyTests {
    @Test func aListenerCalledFromFourTasksRecordsEveryBroadcast() async throws {
        let broadcaster = Broadcaster()
        let spy = TaggedPostSpy()
        broadcaster.addListener(spy)

        for task in 0..<4 {
            Task.detached {
                for index in 0..<valuesPerProducer { broadcaster.postCreated(Post(title: "\(task)-\(index)")) }
            }
        }
        try await spy.titles.waitForValues(count: 4 * valuesPerProducer)

        let titles = spy.titles.values
        #expect(titles.count == 4 * valuesPerProducer)
        for task in 0..<4 {
            let own = titles.filter { $0.hasPrefix("\(task)-") }
            #expect(own == (0..<valuesPerProducer).map { "\(task)-\($0)" })
        }
    }

    @Test func aListenerOnTheMainActorIsWaitedForLikeTheBarrier() async throws {
        let broadcaster = Broadcaster()
        let screen = await FeedScreen(broadcaster: broadcaster)

        await Task.detached { broadcaster.postCreated(Post(title: "synced")) }.value
        try await screen.titles.waitForValues(count: 1)

        #expect(screen.titles.values == ["synced"])
    }

    @Test func aHandlerRecordsEachPostedValue() async throws {
        let broadcaster = Broadcaster()
        let names = BroadcastRecorder<String>()
        let token = broadcaster.addHandler(for: UserSignedIn.self) { names.record($0.name) }

        broadcaster.post(UserSignedIn(name: "Ada"))
        await Task.detached { _ = broadcaster.post(UserSignedIn(name: "Grace")) }.value
        try await names.waitForValues(count: 2)

        #expect(names.values == ["Ada", "Grace"])
        withExtendedLifetime(token) {}
    }

    @Test func aForAwaitLoopInItsOwnTaskIsWaitedFor() async throws {
        let broadcaster = Broadcaster()
        let signIns = BroadcastRecorder<UserSignedIn>()
        let events = broadcaster.events(of: UserSignedIn.self)
        let reader = Task {
            for await event in events { signIns.record(event) }
        }

        broadcaster.post(UserSignedIn(name: "Ada"))
        broadcaster.post(UserSignedIn(name: "Grace"))
        try await signIns.waitForValues(count: 2)
        broadcaster.post(UserSignedIn(name: "Linus"))
        try await signIns.waitForValues(count: 3)

        #expect(signIns.values.map(\.name) == ["Ada", "Grace", "Linus"])
        reader.cancel()
    }
}
