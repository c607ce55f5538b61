import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

/// A small deterministic generator (SplitMix64), so a failure replays.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite(.timeLimit(.minutes(1))) struct MalformedNotificationFuzzTests {
    static let keys = [
        "UIKeyboardFrameBeginUserInfoKey", "UIKeyboardFrameEndUserInfoKey",
        "UIKeyboardAnimationDurationUserInfoKey", "UIKeyboardAnimationCurveUserInfoKey",
        "UIKeyboardIsLocalUserInfoKey",
    ]

    /// Any value a malformed `userInfo` might hold.
    static func junk(_ g: inout SeededGenerator) -> Any {
        let doubles: [Double] = [
            .nan, .infinity, -.infinity, 1e308, -1e308, 0, -0.0, 0.25, -3, .greatestFiniteMagnitude,
            .leastNonzeroMagnitude, 7, 7.5,
        ]
        func d() -> Double { doubles.randomElement(using: &g)! }
        func rect() -> CGRect { CGRect(x: d(), y: d(), width: d(), height: d()) }
        switch Int.random(in: 0..<18, using: &g) {
        case 0: return NSNumber(value: d())
        case 1: return NSNumber(value: Int.random(in: .min ... .max, using: &g))
        case 2: return NSNumber(value: Bool.random(using: &g))
        case 3: return d()
        case 4: return Int.random(in: .min ... .max, using: &g)
        case 5: return rect()
        case 6:
            #if canImport(UIKit)
                return NSValue(cgRect: rect())
            #else
                return NSValue(rect: rect())
            #endif
        case 7: return NSValue(point: CGPoint(x: d(), y: d()))
        case 8: return NSValue(size: CGSize(width: d(), height: d()))
        case 9: return "UIKeyboardFrameEndUserInfoKey"
        case 10: return NSObject()
        case 11: return NSNull()
        case 12: return [1, 2, 3]
        case 13: return ["x": d()]
        case 14: return Float(d())
        case 15: return CGFloat(d())
        case 16: return UInt64.random(in: 0 ... .max, using: &g)
        default: return Data([1, 2, 3])
        }
    }

    static func malformedNotification(_ g: inout SeededGenerator) -> (Notification, isKeyboard: Bool) {
        let isKeyboard = Bool.random(using: &g)
        let name =
            isKeyboard
            ? KeyboardEvent.allCases.randomElement(using: &g)!.notificationName
            : ApplicationEvent.allCases.randomElement(using: &g)!.notificationName
        var userInfo: [AnyHashable: Any]? = nil
        if Int.random(in: 0..<5, using: &g) > 0 {
            var info: [AnyHashable: Any] = [:]
            for key in keys where Bool.random(using: &g) { info[key] = junk(&g) }
            if Bool.random(using: &g) { info[AnyHashable(Int.random(in: 0..<10, using: &g))] = junk(&g) }
            userInfo = info
        }
        let object: Any? = Bool.random(using: &g) ? junk(&g) : nil
        return (Notification(name: name, object: object, userInfo: userInfo), isKeyboard)
    }

    /// Posts `count` malformed notifications; returns how many of each kind.
    static func postMalformed(_ count: Int, seed: UInt64, to center: NotificationCenter) -> (
        keyboard: Int, application: Int
    ) {
        var g = SeededGenerator(seed: seed)
        var keyboard = 0
        var application = 0
        for _ in 0..<count {
            let (notification, isKeyboard) = malformedNotification(&g)
            if isKeyboard { keyboard += 1 } else { application += 1 }
            center.post(notification)
        }
        return (keyboard, application)
    }

    /// 12,000 malformed keyboard and application notifications posted through
    /// a real center, half from a background thread: no trap, and every one is
    /// delivered (counted by spies after the barrier).
    @Test func twelveThousandMalformedNotificationsAreAllDelivered() async {
        let rig = Rig()
        let application = ApplicationSpy()
        let keyboard = await MainActor.run {
            let keyboard = KeyboardSpy()
            rig.broadcaster.addListener(keyboard)
            return keyboard
        }
        rig.broadcaster.addListener(application)
        let center = rig.center
        let onMain = await MainActor.run { Self.postMalformed(6_000, seed: 0xB0AD_CA57, to: center) }
        let offMain = await Task.detached { Self.postMalformed(6_000, seed: 0x5EED_0003, to: center) }.value
        let expectedKeyboard = onMain.keyboard + offMain.keyboard
        let expectedApplication = onMain.application + offMain.application
        await rig.broadcaster.waitForScheduledDeliveries()

        #expect(
            expectedKeyboard > 5_000 && expectedApplication > 5_000 && expectedKeyboard + expectedApplication == 12_000)
        #expect(application.events.count == expectedApplication)
        #expect(application.callsOffMain == 0)
        let keyboardCount = await MainActor.run { keyboard.calls.count }
        #expect(keyboardCount == expectedKeyboard)
    }

    /// The pure parser over the same inputs: every field is either nil or
    /// finite, and each change equals itself (no NaN sneaks in).
    @Test func parsedFieldsAreNilOrFinite() {
        var g = SeededGenerator(seed: 42)
        for _ in 0..<10_000 {
            let (notification, _) = Self.malformedNotification(&g)
            guard case .keyboard(_, let change)? = SystemEvent(notification: notification) else { continue }
            #expect(change == change)
            for rect in [change.beginFrame, change.endFrame].compactMap({ $0 }) {
                #expect([rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].allSatisfy { $0.isFinite })
            }
            #expect(change.animationDuration?.isFinite ?? true)
            let covered = change.coveredHeight(of: screenFrame)
            #expect(covered >= 0 && covered <= 800)
        }
    }
}
