import Broadcast
import Testing

/// The article "Actors That Listen": its three forms, copied verbatim, each
/// receiving what the article says it receives.
@Suite(.timeLimit(.minutes(1))) struct ActorsThatListenTests {
    // Verbatim from Sources/Broadcast/Broadcast.docc/ActorsThatListen.md
    struct Post: Sendable { let title: String }

    nonisolated protocol PostCreationListener: AnyObject {
        func postCreated(_ post: Post)
    }
    // End of the sample.

    // Verbatim from Sources/Broadcast/Broadcast.docc/ActorsThatListen.md
    actor SearchIndex {
        private(set) var titles: [String] = []

        /// Runs until the calling task is cancelled or the broadcaster is released.
        func run(indexing broadcaster: Broadcaster) async {
            for await post in broadcaster.events(of: Post.self) {
                titles.append(post.title)
            }
        }
    }
    // End of the sample.

    // Verbatim from Sources/Broadcast/Broadcast.docc/ActorsThatListen.md
    nonisolated final class TitleList: PostCreationListener {
        private(set) var titles: [String] = []

        func postCreated(_ post: Post) {
            titles.append(post.title)
        }
    }

    actor Indexer {
        // Held weakly by the broadcaster: the actor keeps it alive.
        private let list = TitleList()

        func start(listeningTo broadcaster: Broadcaster) {
            broadcaster.addListener(list, calledOn: self)
        }

        var titles: [String] { list.titles }
    }
    // End of the sample.

    // Verbatim from Sources/Broadcast/Broadcast.docc/ActorsThatListen.md
    nonisolated protocol PostIndexing: AnyObject, Sendable {
        func index(_ post: Post) async
    }

    actor ArchiveIndexer: PostIndexing {
        private(set) var titles: [String] = []

        func index(_ post: Post) async {
            titles.append(post.title)
        }
    }

    func publish(_ post: Post, on broadcaster: Broadcaster) async {
        await broadcaster.broadcast(awaitingEach: PostIndexing.self) { await $0.index(post) }
        // Every indexer has indexed `post` by now.
    }
    // End of the sample.

    /// The stream's actor receives, in posting order, the events posted once
    /// its stream is registered, and not the one posted before.
    @Test func theStreamsActorReceivesTheEventsPostedOnceItListensInOrder() async throws {
        let broadcaster = Broadcaster()
        let index = SearchIndex()
        broadcaster.post(Post(title: "before"), isolation: nil)
        let running = Task { await index.run(indexing: broadcaster) }
        let deadline = ContinuousClock.now + .seconds(30)
        // The stream is registered inside `run`, on the actor: post until it
        // has seen one, then the numbered ones.
        while await index.titles.isEmpty {
            try #require(ContinuousClock.now < deadline, "the stream never received an event")
            broadcaster.post(Post(title: "probe"), isolation: nil)
            await Task.yield()
        }
        for number in 0..<100 { broadcaster.post(Post(title: "\(number)"), isolation: nil) }
        while await index.titles.last != "99" {
            try #require(ContinuousClock.now < deadline, "the stream did not receive every event")
            await Task.yield()
        }
        let titles = await index.titles
        #expect(!titles.contains("before"))
        #expect(titles.filter { $0 != "probe" } == (0..<100).map { "\($0)" })
        running.cancel()
        await running.value
    }

    /// The listener the actor owns is called on the actor, for broadcasts
    /// made from anywhere after it registered, in the order they were made,
    /// and not for one made before.
    @Test func theActorsOwnListenerIsCalledOnTheActorInOrder() async {
        let broadcaster = Broadcaster()
        let indexer = Indexer()
        broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Post(title: "before")) }
        await indexer.start(listeningTo: broadcaster)
        for number in 0..<100 {
            broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Post(title: "\(number)")) }
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(await indexer.titles == (0..<100).map { "\($0)" })
    }

    /// An awaited broadcast returns once the actor's `async` method has run,
    /// and a synchronous post does not reach it.
    @Test func anAwaitedBroadcastReturnsOnceTheActorHandledIt() async {
        let broadcaster = Broadcaster()
        let indexer = ArchiveIndexer()
        broadcaster.addListener(indexer)
        broadcaster.post(Post(title: "posted"), isolation: nil)
        await publish(Post(title: "first"), on: broadcaster)
        #expect(await indexer.titles == ["first"])
        await publish(Post(title: "second"), on: broadcaster)
        #expect(await indexer.titles == ["first", "second"])
        withExtendedLifetime(indexer) {}
    }
}
