import Testing
import Foundation
@testable import Broadcast

protocol Ping: AnyObject { func ping(_ n: Int) }
final class Spy: Ping, @unchecked Sendable { var got: [Int] = []; func ping(_ n: Int) { got.append(n) } }
@MainActor final class Screen { var got: [Int] = []; var offMain = 0 }
extension Screen: @MainActor Ping { func ping(_ n: Int) { MainActor.assertIsolated(); got.append(n) } }

@Test func smoke() async {
    let b = Broadcaster()
    let s = Spy()
    b.addListener(s)
    #expect(b.broadcast(to: Ping.self) { $0.ping(1) } == 1)
    #expect(s.got == [1])
    let screen = await MainActor.run { let sc = Screen(); b.addListener(sc); return sc }
    let n = await Task.detached { b.broadcast(to: Ping.self) { $0.ping(2) } }.value
    #expect(n == 2)
    await b.waitForScheduledDeliveries()
    await MainActor.run { #expect(screen.got == [2]) }
    let m = await Task.detached { await b.broadcastAndWait(to: Ping.self) { $0.ping(3) } }.value
    #expect(m == 2)
    await MainActor.run { #expect(screen.got == [2, 3]) }
    print(b.debugDescription)
    #expect(b.addListener(5 as AnyObject) == false)
}
