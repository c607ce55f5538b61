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
        func index(_ posts: BroadcastEvents<Post>) async {
            for await post in posts {
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

    /// The stream's actor receives, in posting order, every event posted
    /// once the stream is made, from the first, even when the posts begin
    /// before its task runs; not the one posted before.
    @Test func theStreamsActorReceivesEveryEventPostedOnceTheStreamIsMadeInOrder() async throws {
        for _ in 0..<20 {
            let broadcaster = Broadcaster()
            broadcaster.post(Post(title: "before"), isolation: nil)
            // Verbatim from Sources/Broadcast/Broadcast.docc/ActorsThatListen.md
            let index = SearchIndex()
            let posts = broadcaster.events(of: Post.self)  // registered: nothing posted from here on is missed
            let indexing = Task { await index.index(posts) }
            // End of the sample.
            for number in 0..<100 { broadcaster.post(Post(title: "\(number)"), isolation: nil) }
            let deadline = ContinuousClock.now + .seconds(30)
            while await index.titles.count < 100 {
                try #require(ContinuousClock.now < deadline, "the stream did not receive every event")
                await Task.yield()
            }
            #expect(await index.titles == (0..<100).map { "\($0)" })
            indexing.cancel()
            await indexing.value
        }
    }

    /// A broadcast to the protocol that carries a `Post` does not reach a
    /// stream of `Post` values; a post does.
    @Test func theStreamHearsPostsNotBroadcastsToAProtocol() async throws {
        let broadcaster = Broadcaster()
        let index = SearchIndex()
        let posts = broadcaster.events(of: Post.self)
        let indexing = Task { await index.index(posts) }
        let reached = broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Post(title: "broadcast")) }
        broadcaster.post(Post(title: "posted"), isolation: nil)
        let deadline = ContinuousClock.now + .seconds(30)
        while await index.titles.isEmpty {
            try #require(ContinuousClock.now < deadline, "the stream did not receive the post")
            await Task.yield()
        }
        #expect(reached == 0)
        #expect(await index.titles == ["posted"])
        indexing.cancel()
        await indexing.value
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
