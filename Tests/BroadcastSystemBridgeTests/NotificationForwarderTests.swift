import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct NotificationForwarderTests {
    /// A forwarded notification reaches non-isolated handlers as its typed
    /// event, on the posting thread, before `post` returns.
    @Test func forwardsEventValuesOnThePostingThreadBeforePostReturns() async {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let forwarder = NotificationForwarder(
            forwarding: .scoreDidChange, as: ScoreChanged.self, from: center, to: broadcaster, parse: parseScore)
        let seen = Log<(score: Int, thread: ObjectIdentifier)>()
        let token = broadcaster.addHandler(for: ScoreChanged.self) { event in  // non-isolated
            seen.append((event.score, ObjectIdentifier(Thread.current)))
        }
        let afterPost = Log<(count: Int, thread: ObjectIdentifier)>()
        await onNewThread {
            postScore(1, to: center)
            afterPost.append((seen.count, ObjectIdentifier(Thread.current)))
            postScore(2, to: center)
            afterPost.append((seen.count, ObjectIdentifier(Thread.current)))
        }
        #expect(seen.all.map(\.score) == [1, 2])
        #expect(afterPost.all.map(\.count) == [1, 2])
        #expect(seen.all.map(\.thread) == afterPost.all.map(\.thread))
        #expect(forwarder.forwardedCount == 2)
        #expect(forwarder.rejectedCount == 0)
        withExtendedLifetime(token) {}
    }

    /// Posted on the main thread, a notification reaches a main-actor
    /// listener (and a main-actor handler) before `post` returns, with no
    /// scheduled delivery to wait for.
    @Test @MainActor func mainThreadPostReachesMainActorListenersBeforePostReturns() {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let events = NotificationForwarder(
            forwarding: .scoreDidChange, as: ScoreChanged.self, from: center, to: broadcaster, parse: parseScore)
        let calls = NotificationForwarder(forwarding: .scoreDidChange, from: center, to: broadcaster) {
            $0.userInfo?["score"] as? Int
        } broadcast: { broadcaster, score in
            broadcaster.scoreChanged(score)
        }
        let screen = ScoreScreen()
        broadcaster.addListener(screen)
        var handled: [Int] = []
        let token = broadcaster.addHandler(for: ScoreChanged.self, calledOn: MainActor.shared) {
            handled.append($0.score)
        }

        postScore(7, to: center)

        #expect(screen.scores == [7])
        #expect(handled == [7])
        withExtendedLifetime((events, calls, token)) {}
    }

    /// Posted on other threads, the notifications reach a main-actor listener
    /// on the main actor, in posting order, and a non-isolated protocol
    /// listener on the posting thread.
    @Test(.timeLimit(.minutes(1))) func backgroundPostsReachMainActorListenersOnTheMainActorInOrder() async {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let forwarder = NotificationForwarder(forwarding: .scoreDidChange, from: center, to: broadcaster) {
            $0.userInfo?["score"] as? Int
        } broadcast: { broadcaster, score in
            broadcaster.scoreChanged(score)
        }
        let spy = ScoreSpy()
        broadcaster.addListener(spy)
        let screen = await MainActor.run {
            let screen = ScoreScreen()
            broadcaster.addListener(screen)
            return screen
        }
        await onNewThread { for score in 0..<50 { postScore(score, to: center) } }
        await broadcaster.waitForScheduledDeliveries()

        #expect(spy.scores.all == Array(0..<50))
        #expect(!spy.onMainQueue.all.contains(true))
        await MainActor.run { #expect(screen.scores == Array(0..<50)) }
        #expect(forwarder.forwardedCount == 50)
    }

    /// A notification the parse closure rejects, by returning nil or by
    /// throwing, is counted and reported (debug builds) and not forwarded;
    /// valid ones around it still are.
    @Test func theBridgeDeclaresItsOwnDiagnosticKind() {
        let kind = BroadcastDiagnostic.Kind.notificationRejected
        #expect(kind.description == "notificationRejected")
        #expect(kind != .listenerReleasedOnRegistration && kind != .isolatedConformanceRegisteredOffMainActor)
    }

    @Test func rejectedNotificationsAreCountedReportedAndNotForwarded() {
        struct MissingScore: Error {}
        let center = NotificationCenter()
        let reports = Log<BroadcastDiagnostic>()
        let broadcaster = Broadcaster(onDiagnostic: { reports.append($0) })
        let line = #line + 1
        let forwarder = NotificationForwarder(
            forwarding: .scoreDidChange, as: ScoreChanged.self, from: center, to: broadcaster
        ) { notification in
            if notification.userInfo?["throw"] != nil { throw MissingScore() }
            return parseScore(notification)
        }
        let seen = Log<Int>()
        let token = broadcaster.addHandler(for: ScoreChanged.self) { seen.append($0.score) }

        postScore(1, to: center)
        center.post(name: .scoreDidChange, object: nil, userInfo: ["score": "two"])
        center.post(name: .scoreDidChange, object: nil, userInfo: ["throw": true])
        center.post(name: .scoreDidChange, object: nil, userInfo: nil)
        postScore(3, to: center)

        #expect(seen.all == [1, 3])
        #expect(forwarder.forwardedCount == 2)
        #expect(forwarder.rejectedCount == 3)
        #if DEBUG
            let all = reports.all
            #expect(all.count == 3)
            #expect(all.allSatisfy { $0.typeName == "ScoreChanged" && $0.line == line })
            #expect(all.allSatisfy { $0.fileID.hasSuffix("NotificationForwarderTests.swift") })
            #expect(all.allSatisfy { $0.kind == .notificationRejected })
            #expect(all.allSatisfy { $0.notificationName == "ForwardingTests.scoreDidChange" })
            #expect(
                all.map(\.reason) == [
                    "its parse closure returned nil",
                    "its parse closure threw \(String(reflecting: MissingScore()))",
                    "its parse closure returned nil",
                ])
            #expect(all.first?.description.contains("was not forwarded as ScoreChanged") == true)
        #else
            #expect(reports.all.isEmpty)
        #endif
        withExtendedLifetime(token) {}
    }

    /// After `stop()` nothing is forwarded, on any thread; stopping twice is
    /// harmless.
    @Test func stopEndsForwarding() async {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let forwarder = NotificationForwarder(
            forwarding: .scoreDidChange, as: ScoreChanged.self, from: center, to: broadcaster, parse: parseScore)
        let seen = Log<Int>()
        let token = broadcaster.addHandler(for: ScoreChanged.self) { seen.append($0.score) }
        postScore(1, to: center)
        #expect(forwarder.isForwarding)

        forwarder.stop()
        forwarder.stop()
        #expect(!forwarder.isForwarding)
        postScore(2, to: center)
        await onNewThread { postScore(3, to: center) }

        #expect(seen.all == [1])
        #expect(forwarder.forwardedCount == 1)
        withExtendedLifetime(token) {}
    }

    /// Released, a forwarder is deallocated at once (the center's observer
    /// does not keep it alive), forwards nothing more, and its observer is
    /// removed (the center lets go of the parse closure and what it
    /// captured).
    @Test func releasedForwarderIsDeallocatedAndStopsForwarding() async {
        final class Canary: Sendable {}
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        var canary: Canary? = Canary()
        weak let weakCanary = canary
        var forwarder: NotificationForwarder? = NotificationForwarder(
            forwarding: .scoreDidChange, as: ScoreChanged.self, from: center, to: broadcaster
        ) { [canary] notification in
            withExtendedLifetime(canary) { parseScore(notification) }
        }
        canary = nil
        weak let weakForwarder = forwarder
        let seen = Log<Int>()
        let token = broadcaster.addHandler(for: ScoreChanged.self) { seen.append($0.score) }
        postScore(1, to: center)

        #expect(weakCanary != nil)
        forwarder = nil
        #expect(weakForwarder == nil)
        #expect(weakCanary == nil)
        postScore(2, to: center)
        await onNewThread { postScore(3, to: center) }

        #expect(seen.all == [1])
        withExtendedLifetime(token) {}
    }

    /// With an object, only that sender's notifications are forwarded.
    @Test func objectFilterForwardsOnlyThatSender() {
        final class Sender: Sendable {}
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let sender = Sender()
        let forwarder = NotificationForwarder(
            forwarding: .scoreDidChange, object: sender, as: ScoreChanged.self, from: center, to: broadcaster,
            parse: parseScore)
        let seen = Log<Int>()
        let token = broadcaster.addHandler(for: ScoreChanged.self) { seen.append($0.score) }

        postScore(1, to: center, object: sender)
        postScore(2, to: center, object: Sender())
        postScore(3, to: center)

        #expect(seen.all == [1])
        withExtendedLifetime((forwarder, token)) {}
    }

    /// Forwarded as sticky, the latest event reaches a late handler that asks
    /// for it.
    @Test func stickyForwardingKeepsTheLatestEvent() {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let forwarder = NotificationForwarder(
            forwarding: .scoreDidChange, as: ScoreChanged.self, from: center, to: broadcaster, sticky: true,
            parse: parseScore)
        postScore(4, to: center)
        postScore(5, to: center)

        let seen = Log<Int>()
        let token = broadcaster.addHandler(for: ScoreChanged.self, receivingSticky: true) {
            seen.append($0.score)
        }

        #expect(seen.all == [5])
        #expect(broadcaster.stickyEvent(for: ScoreChanged.self) == ScoreChanged(score: 5))
        withExtendedLifetime((forwarder, token)) {}
    }
}
