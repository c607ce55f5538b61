// Verbatim from Sources/Broadcast/Broadcast.docc/TestingWithBroadcast.md
// (DocumentationSampleTests checks it), down to "End of the sample".
import Broadcast
import BroadcastTesting
import Testing

nonisolated final class PostSpy: PostCreationListener, Sendable {
    let titles = BroadcastRecorder<String>()

    func postCreated(_ post: Post) { titles.record(post.title) }
}

@Test func savingAPostBroadcastsIt() {
    let broadcaster = Broadcaster()
    let spy = PostSpy()
    broadcaster.addListener(spy)

    PostComposer(broadcaster: broadcaster).save(title: "Hello")

    #expect(spy.titles.values == ["Hello"])
}
// End of the sample.

/// The article's spy as a user's test suite meets it.
///
/// Called from four tasks at once while another task reads it.
/// `scripts/sanitizers thread` runs this suite, so a report from the spy
/// fails CI.
@Suite("The article's spy under concurrent broadcasts", .timeLimit(.minutes(1)))
struct ArticleSpyTests {
    @Test func fourTasksSavingAtOnceReachTheSpyInEachTasksOrder() async throws {
        let broadcaster = Broadcaster()
        let spy = PostSpy()
        broadcaster.addListener(spy)

        for task in 0..<4 {
            Task.detached {
                let composer = PostComposer(broadcaster: broadcaster)
                for index in 0..<valuesPerProducer { composer.save(title: "\(task)-\(index)") }
            }
        }
        let reader = Task.detached {  // reads while the tasks write
            (0..<valuesPerProducer).map { _ in spy.titles.values.count }
        }
        try await spy.titles.waitForValues(count: 4 * valuesPerProducer)

        for task in 0..<4 {
            let own = spy.titles.values.filter { $0.hasPrefix("\(task)-") }
            #expect(own == (0..<valuesPerProducer).map { "\(task)-\($0)" })
        }
        let counts = await reader.value
        #expect(counts == counts.sorted())  // the record only grows
    }
}
