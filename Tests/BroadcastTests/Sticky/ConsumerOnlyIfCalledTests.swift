import Broadcast
import BroadcastTesting
import Testing

/// A consuming handler takes the sticky state only if its call runs: once
/// its owner is gone or its token cancelled, the state stays for the next
/// consumer, in every registration form.
@Suite("Sticky state taken only by a call that runs", .timeLimit(.minutes(1)))
struct ConsumerOnlyIfCalledTests {
    struct DeepLink: Sendable, Equatable { let path: String }
    final class Owner: Sendable {}
    @MainActor final class Screen {}

    enum OwnedForm: CaseIterable, Sendable { case postingThread, mainActor }

    /// A consumer whose owner is gone (its token kept) is not called by a
    /// sticky post and takes nothing: the next consumer gets the state.
    @Test(arguments: OwnedForm.allCases)
    func aConsumerWhoseOwnerIsGoneLeavesTheStateForTheNext(form: OwnedForm) async {
        let broadcaster = Broadcaster()
        let opened = BroadcastRecorder<String>()
        let token: BroadcastToken
        switch form {
        case .postingThread:
            token = broadcaster.addHandler(for: DeepLink.self, owner: Owner(), consumingSticky: true) { _, link in
                opened.record("gone \(link.path)")
            }
        case .mainActor:
            token = await MainActor.run {
                broadcaster.addHandler(
                    for: DeepLink.self, owner: Screen(), calledOn: MainActor.shared, consumingSticky: true
                ) { _, link in opened.record("gone \(link.path)") }
            }
        }
        broadcaster.post(DeepLink(path: "/kept"), sticky: true)
        await broadcaster.waitForScheduledDeliveries()
        #expect(opened.values == [])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == DeepLink(path: "/kept"))

        let next = broadcaster.addHandler(for: DeepLink.self, receivingSticky: true, consumingSticky: true) { link in
            opened.record("next \(link.path)")
        }
        #expect(opened.values == ["next /kept"])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)
        withExtendedLifetime((token, next)) {}
    }

    /// The same consumers with their owners alive take the state and run:
    /// the test above fails for the right reason.
    @Test(arguments: OwnedForm.allCases)
    func aConsumerWhoseOwnerLivesTakesTheState(form: OwnedForm) async {
        let broadcaster = Broadcaster()
        let opened = BroadcastRecorder<String>()
        let owner = Owner()
        let screen = Screen()
        let token: BroadcastToken
        switch form {
        case .postingThread:
            token = broadcaster.addHandler(for: DeepLink.self, owner: owner, consumingSticky: true) { _, link in
                opened.record("owned \(link.path)")
            }
        case .mainActor:
            token = await MainActor.run {
                broadcaster.addHandler(
                    for: DeepLink.self, owner: screen, calledOn: MainActor.shared, consumingSticky: true
                ) { _, link in opened.record("owned \(link.path)") }
            }
        }
        broadcaster.post(DeepLink(path: "/kept"), sticky: true)
        await broadcaster.waitForScheduledDeliveries()
        #expect(opened.values == ["owned /kept"])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)
        withExtendedLifetime((token, owner, screen)) {}
    }

    /// An owner released while its call waits on the main actor: the call
    /// does not run and takes nothing.
    @Test func aScheduledCallWhoseOwnerWentMeanwhileTakesNothing() async {
        let broadcaster = Broadcaster()
        let opened = BroadcastRecorder<String>()
        let screens = Locked<[Screen]>([])
        let token = await MainActor.run {
            let screen = Screen()
            screens.withLock { $0.append(screen) }
            return broadcaster.addHandler(
                for: DeepLink.self, owner: screen, calledOn: MainActor.shared, consumingSticky: true
            ) { _, link in opened.record("screen \(link.path)") }
        }
        let hold = await MainActorHold.hold()
        broadcaster.post(DeepLink(path: "/kept"), sticky: true)
        let released = screens.withLock { screens in
            defer { screens = [] }
            return screens
        }
        _ = consume released
        hold.release()
        await broadcaster.waitForScheduledDeliveries()
        #expect(opened.values == [])
        #expect(broadcaster.takeStickyEvent(for: DeepLink.self) == DeepLink(path: "/kept"))
        withExtendedLifetime(token) {}
    }

    /// A token cancelled while its call waits on the main actor: the call
    /// does not run and takes nothing; the state stays.
    @Test func aScheduledCallWhoseTokenWasCancelledMeanwhileTakesNothing() async {
        let broadcaster = Broadcaster()
        let opened = BroadcastRecorder<String>()
        let token = await MainActor.run {
            broadcaster.addHandler(for: DeepLink.self, calledOn: MainActor.shared, consumingSticky: true) { link in
                opened.record("cancelled \(link.path)")
            }
        }
        let hold = await MainActorHold.hold()
        broadcaster.post(DeepLink(path: "/kept"), sticky: true)
        token.cancel()
        hold.release()
        await broadcaster.waitForScheduledDeliveries()
        #expect(opened.values == [])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == DeepLink(path: "/kept"))
    }

    /// A consumer that cancels another consumer's token from its own call:
    /// the cancelled one is not called and takes nothing, even though the
    /// broadcast had already read it among the members.
    @Test func aConsumerCancelledDuringTheBroadcastTakesNothing() {
        let broadcaster = Broadcaster()
        let opened = BroadcastRecorder<String>()
        let later = Locked<BroadcastToken?>(nil)
        let canceller = broadcaster.addHandler(for: DeepLink.self) { _ in
            later.withLock { $0 }?.cancel()
        }
        later.withLock {
            $0 = broadcaster.addHandler(for: DeepLink.self, consumingSticky: true) { link in
                opened.record("cancelled \(link.path)")
            }
        }
        broadcaster.post(DeepLink(path: "/kept"), sticky: true)
        #expect(opened.values == [])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == DeepLink(path: "/kept"))
        withExtendedLifetime(canceller) {}
    }
}
