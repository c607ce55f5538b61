import Broadcast

// The app code of the article "Testing with Broadcast", which its spy
// (ArticleSpyTests.swift) listens to, as the article writes it.

struct Post: Sendable { let title: String }

protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

extension Broadcaster {
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

final class PostComposer {
    private let broadcaster: Broadcaster

    init(broadcaster: Broadcaster = .shared) {
        self.broadcaster = broadcaster
    }

    func save(title: String) {
        // … store the post …
        broadcaster.postCreated(Post(title: title))
    }
}

struct UserSignedIn: Sendable, Equatable { let name: String }

/// How many values each of the concurrent tests' producers records or
/// broadcasts: enough to interleave four producers on two cores, small
/// enough for ThreadSanitizer.
let valuesPerProducer = 1_000

/// `body`'s result, or nil if `seconds` pass first (then `body` is
/// cancelled): a test that waits has a deadline of its own, well under its
/// time limit.
func ending<T: Sendable>(within seconds: Int, _ body: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
