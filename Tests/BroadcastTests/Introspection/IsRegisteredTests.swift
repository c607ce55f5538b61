import Broadcast
import Testing

/// `isRegistered(_:)`: true while `addListener` or a started registration
/// holds the object, on this broadcaster only.
@Suite("Is registered")
struct IsRegisteredTests {
    @Test func trueFromAddListenerUntilRemoved() {
        let broadcaster = Broadcaster()
        let spy = CountingPing()
        #expect(!broadcaster.isRegistered(spy))
        broadcaster.addListener(spy)
        #expect(broadcaster.isRegistered(spy))
        broadcaster.removeListener(spy)
        #expect(!broadcaster.isRegistered(spy))
    }

    @Test func trueWhileARegistrationIsStarted() {
        let broadcaster = Broadcaster()
        let spy = CountingPing()
        let registration = ListenerRegistration(spy, for: Ping.self, on: broadcaster)
        #expect(!broadcaster.isRegistered(spy))
        registration.start()
        #expect(broadcaster.isRegistered(spy))
        registration.stop()
        #expect(!broadcaster.isRegistered(spy))
    }

    @Test func removingTheListenerLeavesItsRegistrationRegistered() {
        let broadcaster = Broadcaster()
        let spy = CountingPing()
        broadcaster.addListener(spy)
        let registration = ListenerRegistration(spy, for: Ping.self, on: broadcaster)
        registration.start()
        broadcaster.removeListener(spy)
        #expect(broadcaster.isRegistered(spy))
        registration.stop()
        #expect(!broadcaster.isRegistered(spy))
    }

    @Test func anotherBroadcastersListenerIsNotRegisteredHere() {
        let broadcaster = Broadcaster()
        let other = Broadcaster()
        let spy = CountingPing()
        other.addListener(spy)
        #expect(other.isRegistered(spy))
        #expect(!broadcaster.isRegistered(spy))
    }

    @Test func aRefusedValueIsNotRegistered() {
        struct Value {}
        let broadcaster = Broadcaster()
        let boxed = Value() as AnyObject
        #expect(broadcaster.addListenerAsInSwift5(boxed) == false)
        #expect(!broadcaster.isRegistered(boxed))
    }
}
