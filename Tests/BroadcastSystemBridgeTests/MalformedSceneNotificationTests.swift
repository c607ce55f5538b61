import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

/// Scene notifications whose object identifies no scene, or whose
/// `userInfo` holds anything: never a trap; the first are reported and change
/// nothing, the second are delivered as if `userInfo` were empty.
@Suite(.timeLimit(.minutes(1))) struct MalformedSceneNotificationTests {
    /// A bridge on a private center whose broadcaster logs its diagnostics.
    struct ReportingRig {
        let center = NotificationCenter()
        let reports = Log<BroadcastDiagnostic>()
        let broadcaster: Broadcaster
        let bridge: SystemNotificationBridge

        init() {
            let reports = reports
            broadcaster = Broadcaster(onDiagnostic: { reports.append($0) })
            bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center)
        }
    }

    @Test @MainActor func anObjectThatIdentifiesNoSceneIsReportedAndChangesNothing() {
        let rig = ReportingRig()
        let screen = SceneSpy()
        let model = ConnectedScenesSpy()
        rig.broadcaster.addListener(screen)
        rig.broadcaster.addListener(model)
        SystemNotificationSimulator(center: rig.center).connect(phone)
        let before = rig.bridge.connectedScenes
        let name = SceneEvent.didEnterBackground.notificationName

        let odd: [Any?] = [nil, NSObject(), "phone-window", NSNumber(value: 1), [phone], NSNull(), Data([1])]
        for object in odd { rig.center.post(Notification(name: name, object: object, userInfo: nil)) }
        rig.center.post(name: name, object: phone, userInfo: ["UISceneKey": NSObject(), 7: Double.nan])

        #expect(screen.calls.suffix(2) == [SceneCall(.didActivate, phone), SceneCall(.didEnterBackground, phone)])
        #expect(screen.calls.count == 4)
        #expect(before == ConnectedScenes([phone: .active]))
        #expect(rig.bridge.connectedScenes == ConnectedScenes([phone: .background]))
        #expect(model.aggregateStates == [.background, .inactive, .active, .background])
        #if DEBUG
            let reports = rig.reports.all
            #expect(reports.count == odd.count)
            #expect(reports.allSatisfy { $0.kind == .notificationRejected && $0.typeName == "SceneEvent" })
            #expect(reports.allSatisfy { $0.notificationName == "UISceneDidEnterBackgroundNotification" })
            #expect(reports.allSatisfy { $0.fileID.isEmpty && $0.line == 0 })
            #expect(reports.first?.reason?.hasPrefix("its object is nil, which identifies no scene") == true)
            #expect(reports.dropFirst().first?.reason?.hasPrefix("its object is of type NSObject") == true)
            #expect(reports.first?.description.contains("did not deliver the scene notification") == true)
        #else
            #expect(rig.reports.all.isEmpty)
        #endif
    }

    /// 6,000 scene notifications with any object and any `userInfo`, half
    /// posted on the main actor and half from a background thread: no trap;
    /// those whose object is a scene identity are each delivered and change
    /// the connected scenes as a well-formed one would, every other one is
    /// reported.
    @Test func sixThousandMalformedSceneNotifications() async {
        let rig = ReportingRig()
        let model = SceneModelSpy()
        rig.broadcaster.addListener(model)
        let center = rig.center
        let onMain = await MainActor.run { Self.postMalformed(3_000, seed: 0x5CE_E5, to: center) }
        let offMain = await Task.detached { Self.postMalformed(3_000, seed: 0xD15_C0, to: center) }.value
        await rig.broadcaster.waitForScheduledDeliveries()

        let delivered = onMain + offMain
        #expect(delivered.count > 2_500 && delivered.count < 3_500)
        #expect(model.calls.all == delivered)
        #expect(model.offMainCalls.all.isEmpty)
        var expected: [SceneIdentity: SceneState] = [:]
        for call in delivered { expected[call.scene] = call.event.resultingState }
        #expect(rig.bridge.connectedScenes == ConnectedScenes(expected))
        #if DEBUG
            #expect(rig.reports.count == 6_000 - delivered.count)
        #endif
    }

    /// Posts `count` scene notifications, each with a scene identity or junk
    /// as object (half each) and junk or no `userInfo`; returns the calls a
    /// listener should receive.
    static func postMalformed(_ count: Int, seed: UInt64, to center: NotificationCenter) -> [SceneCall] {
        var g = SeededGenerator(seed: seed)
        var expected: [SceneCall] = []
        for _ in 0..<count {
            let event = SceneEvent.allCases.randomElement(using: &g)!
            let scene = [phone, secondWindow, airPlay].randomElement(using: &g)!
            let identifies = Bool.random(using: &g)
            let object: Any? =
                identifies ? scene : (Bool.random(using: &g) ? MalformedNotificationFuzzTests.junk(&g) : nil)
            var userInfo: [AnyHashable: Any]? = nil
            if Bool.random(using: &g) {
                let junk = MalformedNotificationFuzzTests.junk
                userInfo = ["UISceneKey": junk(&g), 3: junk(&g)]
            }
            if identifies { expected.append(SceneCall(event, scene)) }
            center.post(Notification(name: event.notificationName, object: object, userInfo: userInfo))
        }
        return expected
    }
}
