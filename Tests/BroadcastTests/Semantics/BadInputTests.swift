import Broadcast
import Foundation
import Testing

/// Semantic 9 — Bad input: a value boxed as `AnyObject` is refused, visibly,
/// instead of vanishing from the weak table.
@Suite("Bad input")
struct BadInputTests {
    /// A value type that would like to listen: it cannot conform to a
    /// class-bound listener protocol, and boxed as `AnyObject` it would vanish.
    struct ValueListener {
        var received: [Int] = []
    }

    @Test func boxedValuesAreRefusedAndNothingIsRegistered() {
        let broadcaster = Broadcaster()
        let resident = CountingPing()
        broadcaster.addListener(resident)

        #expect(broadcaster.addListenerAsInSwift5(ValueListener() as AnyObject) == false)
        #expect(broadcaster.addListenerAsInSwift5(42 as AnyObject) == false)
        #expect(broadcaster.addListenerAsInSwift5("text" as AnyObject) == false)
        #expect(broadcaster.addListenerAsInSwift5(3.5 as AnyObject) == false)
        #expect(broadcaster.addListenerAsInSwift5([1, 2] as AnyObject) == false)

        #expect(broadcaster.registrationCount == 1)
        #expect(broadcaster.debugDescription == "Broadcaster(1 listener: CountingPing)")
        #expect(broadcaster.ping(1) == 1)
        withExtendedLifetime(resident) {}
    }

    @Test func classInstancesAreAccepted() {
        let broadcaster = Broadcaster()
        let plain = CountingPing()
        let objcBase = NSObject()
        #expect(broadcaster.addListener(plain))
        #expect(broadcaster.addListenerAsInSwift5(objcBase))
        #expect(broadcaster.registrationCount == 2)
        #expect(broadcaster.ping(1) == 1)
        #expect(plain.calls.count == 1)
        withExtendedLifetime(objcBase) {}
    }
}
