import Broadcast
import Foundation
import Testing

// Verbatim from Sources/Broadcast/Broadcast.docc/GettingStarted.md, after its
// import (DocumentationSampleTests checks it), down to "End of the sample".

nonisolated final class PostArchive: PostCreationListener, @unchecked Sendable {
    // @unchecked Sendable: `titles` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var titles: [String] = []

    var archived: [String] { lock.withLock { titles } }

    init(broadcaster: Broadcaster = .shared) {
        broadcaster.addListener(self)  // from its nonisolated init: no actor
    }

    func postCreated(_ post: Post) {
        lock.withLock { titles.append(post.title) }
    }
}
// End of the sample.

/// Getting Started's thread-safe service, as a server meets it.
///
/// Broadcast to from four tasks at once while another task reads it.
/// `scripts/sanitizers thread` runs this suite, so a report from the sample
/// fails CI.
@Suite("Getting Started's archive under concurrent broadcasts", .timeLimit(.minutes(1)))
struct PostArchiveSampleTests {
    @Test func fourTasksBroadcastingAtOnceAreAllArchivedInEachTasksOrder() async {
        let broadcaster = Broadcaster()
        let archive = PostArchive(broadcaster: broadcaster)
        let perTask = 1_000

        let reader = Task.detached {  // reads while the tasks write
            (0..<perTask).map { _ in archive.archived.count }
        }
        await withTaskGroup { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<perTask { broadcaster.postCreated(Post(title: "\(task)-\(index)")) }
                }
            }
        }

        let archived = archive.archived
        #expect(archived.count == 4 * perTask)
        for task in 0..<4 {
            #expect(archived.filter { $0.hasPrefix("\(task)-") } == (0..<perTask).map { "\(task)-\($0)" })
        }
        let counts = await reader.value
        #expect(counts == counts.sorted())
    }
}
