import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct ForwardingStressTests {
    static let name = Notification.Name("ForwardingStressTests.tick")
    static let posters = 8
    static let generations = 40
    /// Posts per poster at most, so that the test's length does not depend on
    /// how the scheduler shares two cores among nine threads.
    static let maximumPosts = 5_000

    /// One delivery: which forwarder generation forwarded which post.
    struct Delivery: Sendable, Hashable {
        let generation: Int
        let poster: Int
        let sequence: Int
    }

    /// One post, with what its poster knew of the forwarders around it.
    struct Post: Sendable {
        let poster: Int
        let sequence: Int
        /// Generations whose `init` had returned before the post began.
        let startedBefore: Int
        /// Generations whose `stop` (or release) had begun when the post
        /// returned.
        let stoppingAfter: Int
        /// Generations whose `stop` (or release) had returned before the post
        /// began.
        let stoppedBefore: Int
    }

    /// The generations published by the thread that starts and stops
    /// forwarders; generations start and stop in order, two running at a time.
    final class Published: Sendable {
        let started = Atomic<Int>(0)
        let stopping = Atomic<Int>(0)
        let stopped = Atomic<Int>(0)
        let posts = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let finishedPosters = Atomic<Int>(0)
    }

    /// Eight threads post while forwarders start and stop (every other one
    /// stopped by release): a post made while a forwarder ran from before it
    /// began until after it returned is forwarded by it exactly once; a post
    /// begun after a forwarder's stop returned (seen through the published
    /// counter, or made by the stopping thread itself) is never forwarded by
    /// it; nothing is forwarded twice; nothing crashes.
    @Test(.timeLimit(.minutes(1))) func postsFromEightThreadsWhileForwardersStartAndStop() async {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let deliveries = Log<Delivery>()
        let token = broadcaster.addHandler(for: Delivery.self) { deliveries.append($0) }
        let published = Published()
        let posts = Log<[Post]>()

        let postersDone = DispatchGroup()
        for poster in 0..<Self.posters {
            postersDone.enter()
            Thread {
                var made: [Post] = []
                var sequence = 0
                while !published.done.load(ordering: .acquiring) && sequence < Self.maximumPosts {
                    let startedBefore = published.started.load(ordering: .acquiring)
                    let stoppedBefore = published.stopped.load(ordering: .acquiring)
                    center.post(name: Self.name, object: nil, userInfo: ["poster": poster, "sequence": sequence])
                    let stoppingAfter = published.stopping.load(ordering: .acquiring)
                    made.append(
                        Post(
                            poster: poster, sequence: sequence, startedBefore: startedBefore,
                            stoppingAfter: stoppingAfter, stoppedBefore: stoppedBefore))
                    published.posts.add(1, ordering: .relaxed)
                    sequence += 1
                }
                posts.append(made)
                published.finishedPosters.add(1, ordering: .relaxed)
                postersDone.leave()
            }.start()
        }

        await onNewThread {
            var running: [Int: NotificationForwarder] = [:]
            for generation in 1...Self.generations {
                running[generation] = NotificationForwarder(
                    forwarding: Self.name, as: Delivery.self, from: center, to: broadcaster
                ) { notification in
                    guard let poster = notification.userInfo?["poster"] as? Int,
                        let sequence = notification.userInfo?["sequence"] as? Int
                    else { return nil }
                    return Delivery(generation: generation, poster: poster, sequence: sequence)
                }
                published.started.store(generation, ordering: .releasing)
                Self.waitForPosts(published)
                let retiring = generation - 1
                guard retiring > 0 else { continue }
                published.stopping.store(retiring, ordering: .releasing)
                if retiring.isMultiple(of: 2) {
                    running[retiring]?.stop()
                }
                running[retiring] = nil  // the odd ones: released, their deinit stops them
                published.stopped.store(retiring, ordering: .releasing)
                // The stopping thread's own post, after the stop returned.
                center.post(name: Self.name, object: nil, userInfo: ["poster": -1, "sequence": retiring])
            }
            // The last generation, stopped like the others before the posters
            // are told to finish.
            published.stopping.store(Self.generations, ordering: .releasing)
            running.removeAll()
            published.stopped.store(Self.generations, ordering: .releasing)
            published.done.store(true, ordering: .releasing)
        }
        await withCheckedContinuation { continuation in
            postersDone.notify(queue: .global()) { continuation.resume() }
        }

        var forwardedBy: [Delivery: Int] = [:]
        for delivery in deliveries.all { forwardedBy[delivery, default: 0] += 1 }
        #expect(forwardedBy.values.allSatisfy { $0 == 1 }, "a post forwarded twice by one forwarder")

        let allPosts = posts.all.joined()
        var postsByID: [[Int]: Post] = [:]
        for post in allPosts { postsByID[[post.poster, post.sequence]] = post }
        var mustForward = 0
        var lost: [Delivery] = []
        for post in allPosts where post.stoppingAfter < post.startedBefore {
            for generation in (post.stoppingAfter + 1)...post.startedBefore {
                mustForward += 1
                let delivery = Delivery(generation: generation, poster: post.poster, sequence: post.sequence)
                if forwardedBy[delivery] == nil { lost.append(delivery) }
            }
        }
        var late: [Delivery] = []
        for delivery in forwardedBy.keys {
            if delivery.poster == -1 {
                // The stopping thread's own post, made right after stopping
                // generation `sequence`.
                if delivery.generation <= delivery.sequence { late.append(delivery) }
            } else if let post = postsByID[[delivery.poster, delivery.sequence]],
                delivery.generation <= post.stoppedBefore
            {
                late.append(delivery)
            }
        }
        #expect(mustForward > Self.generations, "too few posts overlapped a running forwarder to prove anything")
        #expect(lost.isEmpty, "posts lost while their forwarder ran: \(lost.prefix(5))")
        #expect(late.isEmpty, "posts forwarded after their forwarder's stop returned: \(late.prefix(5))")
        withExtendedLifetime(token) {}
    }

    /// Returns once the posters have made a few posts, so that each
    /// generation overlaps some; yields instead of sleeping.
    static func waitForPosts(_ published: Published) {
        let target = published.posts.load(ordering: .relaxed) + posters
        while published.posts.load(ordering: .relaxed) < target
            && published.finishedPosters.load(ordering: .relaxed) < posters
        {
            sched_yield()
        }
    }
}
