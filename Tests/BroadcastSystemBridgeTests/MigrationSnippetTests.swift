// The migration guide's "Step by step, one notification at a time" section
// (the "Migrating to Broadcast" article), every snippet as written, so that they keep compiling
// and the half-migrated app they show keeps working. The DocC article
// "Migrating One Notification at a Time" quotes the same code.
import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

// The notification the app has posted by name for years.
nonisolated extension Notification.Name {
    static let cartDidChange = Notification.Name("CartDidChange")
}

// The typed event that replaces it.
nonisolated struct CartChanged: Sendable, Equatable {
    let itemCount: Int
}

// Both directions, in one place, for as long as both worlds exist.
final class CartMigration {
    private let forwarder: NotificationForwarder
    private let mirror: NotificationMirror

    init(broadcaster: Broadcaster, center: NotificationCenter = .default) {
        // In: old code's notifications reach converted listeners as CartChanged.
        forwarder = NotificationForwarder(
            forwarding: .cartDidChange, as: CartChanged.self, from: center, to: broadcaster
        ) { notification in
            guard let count = notification.userInfo?["count"] as? Int else { return nil }  // rejected, counted
            return CartChanged(itemCount: count)
        }
        // Out: converted code's CartChanged reaches old observers as the notification.
        mirror = NotificationMirror(mirroring: CartChanged.self, from: broadcaster, to: center, as: .cartDidChange) {
            ["count": $0.itemCount]
        }
    }
}

// Converted: listens typed.
@MainActor final class CartBadge {
    private(set) var count = 0
    private(set) var updates = 0
    private var token: BroadcastToken?

    init(broadcaster: Broadcaster) {
        token = broadcaster.addHandler(for: CartChanged.self, owner: self, calledOn: MainActor.shared) { badge, event in
            badge.count = event.itemCount
            badge.updates += 1
        }
    }
}

// Not converted yet: still observes by name, as it always did.
@MainActor final class CheckoutButton {
    private(set) var count = 0
    private(set) var updates = 0
    private var observer: (any NSObjectProtocol)?

    init(center: NotificationCenter = .default) {
        observer = center.addObserver(forName: .cartDidChange, object: nil, queue: nil) { [weak self] notification in
            let count = notification.userInfo?["count"] as? Int ?? 0
            MainActor.assumeIsolated {
                self?.count = count
                self?.updates += 1
            }
        }
    }
}

nonisolated final class LegacyCart: Sendable {
    let center: NotificationCenter
    init(center: NotificationCenter = .default) { self.center = center }
    func itemsChanged(count: Int) {
        center.post(name: .cartDidChange, object: nil, userInfo: ["count": count])  // not converted yet
    }
}

nonisolated final class Cart: Sendable {
    let broadcaster: Broadcaster
    init(broadcaster: Broadcaster) { self.broadcaster = broadcaster }
    func itemsChanged(count: Int) {
        broadcaster.post(CartChanged(itemCount: count))  // converted
    }
}

nonisolated protocol CartListener: AnyObject {
    func cartChanged(itemCount: Int)
}

nonisolated extension Broadcaster {
    func cartChanged(itemCount: Int) {
        broadcast(to: CartListener.self) { $0.cartChanged(itemCount: itemCount) }
    }
}

func forwardCartChangesToListeners(broadcaster: Broadcaster, center: NotificationCenter) -> NotificationForwarder {
    NotificationForwarder(forwarding: .cartDidChange, from: center, to: broadcaster) {
        $0.userInfo?["count"] as? Int
    } broadcast: { broadcaster, count in
        broadcaster.cartChanged(itemCount: count)
    }
}

/// A converted listener of the protocol form.
final class CartListenerSpy: CartListener, Sendable {
    let counts = Log<Int>()
    func cartChanged(itemCount: Int) { counts.append(itemCount) }
}

@Suite struct MigrationSnippetTests {
    /// Half migrated: whichever side posts, the converted badge and the
    /// unconverted button each hear every change once, before the post
    /// returns on the main actor (the guide's test, as written).
    @Test @MainActor func halfMigratedAppHearsEveryChangeOnceOnBothSides() {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let migration = CartMigration(broadcaster: broadcaster, center: center)
        let badge = CartBadge(broadcaster: broadcaster)
        let button = CheckoutButton(center: center)

        LegacyCart(center: center).itemsChanged(count: 2)
        #expect((badge.count, badge.updates, button.count, button.updates) == (2, 1, 2, 1))

        Cart(broadcaster: broadcaster).itemsChanged(count: 3)
        #expect((badge.count, badge.updates, button.count, button.updates) == (3, 2, 3, 2))

        center.post(name: .cartDidChange, object: nil, userInfo: ["count": "three"])  // malformed: not forwarded
        #expect(badge.updates == 2)
        withExtendedLifetime(migration) {}
    }

    /// The protocol form forwards through the typed method.
    @Test func protocolFormForwardsThroughTheTypedMethod() {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let forwarder = forwardCartChangesToListeners(broadcaster: broadcaster, center: center)
        let spy = CartListenerSpy()
        broadcaster.addListener(spy)

        LegacyCart(center: center).itemsChanged(count: 4)

        #expect(spy.counts.all == [4])
        withExtendedLifetime(forwarder) {}
    }
}
