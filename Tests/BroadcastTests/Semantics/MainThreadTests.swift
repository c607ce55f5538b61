import Foundation
import Synchronization
import Testing

@testable import Broadcast

/// `MainThread` keeps the main thread's identifier once Foundation named it,
/// and answers from it after that, for the main thread and for every other.
@Suite("The main thread, asked without system calls")
struct MainThreadTests {
    static let main: UInt = 0x1000
    static let other: UInt = 0x2000

    @Test func beforeTheMainThreadIsSeenFoundationAnswers() {
        let known = Atomic<UInt>(0)
        #expect(!MainThread.isMain(Self.other, knownMain: known) { false })
        #expect(known.load(ordering: .relaxed) == 0, "another thread is not kept")
        #expect(MainThread.isMain(Self.main, knownMain: known) { true })
        #expect(known.load(ordering: .relaxed) == Self.main)
    }

    @Test func onceSeenTheKeptIdentifierAnswersWithoutAskingFoundation() {
        let known = Atomic<UInt>(Self.main)
        var asked = 0
        #expect(
            MainThread.isMain(Self.main, knownMain: known) {
                asked += 1
                return false
            })
        #expect(
            !MainThread.isMain(Self.other, knownMain: known) {
                asked += 1
                return true
            })
        #expect(asked == 0)
    }

    /// The process's answer, wherever this runs: Foundation's.
    @Test func answersAsFoundationDoesOffTheMainThread() async {
        let answers = await withCheckedContinuation { (answers: CheckedContinuation<(Bool, Bool), Never>) in
            Thread { answers.resume(returning: (MainThread.isCurrent, Thread.isMainThread)) }.start()
        }
        #expect(answers.0 == answers.1)
        let inTask = await Task.detached { (MainThread.isCurrent, Thread.isMainThread) }.value
        #expect(inTask.0 == inTask.1)
    }
}
