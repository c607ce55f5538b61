import Broadcast
import Testing

@Suite("Closure handlers and tokens", .timeLimit(.minutes(1)))
struct HandlerTests {
    @Test("a handler receives posted values until its token is released")
    func tokenLifetime() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        var token: BroadcastToken? = broadcaster.addHandler(for: SignedIn.self) {
            log.append("h(\($0.user))")
        }
        #expect(broadcaster.post(SignedIn(user: "a")) == 1)
        token = nil
        #expect(broadcaster.post(SignedIn(user: "b")) == 0)
        #expect(log.all == ["h(a)"])
        _ = token
    }

    @Test("cancel unregisters at once and is idempotent")
    func cancel() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let token = broadcaster.addHandler(for: SignedIn.self) { log.append("h(\($0.user))") }
        broadcaster.post(SignedIn(user: "a"))
        token.cancel()
        token.cancel()
        broadcaster.post(SignedIn(user: "b"))
        #expect(token.isCancelled)
        #expect(log.all == ["h(a)"])
    }

    @Test("a token released during a broadcast stops its handler for the rest of it")
    func tokenReleasedMidBroadcast() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let holder = TokenHolder()
        let first = broadcaster.addHandler(for: SignedIn.self) { event in
            log.append("first(\(event.user))")
            holder.token = nil  // releases the second handler mid-broadcast
        }
        holder.token = broadcaster.addHandler(for: SignedIn.self) { log.append("second(\($0.user))") }

        let count = broadcaster.post(SignedIn(user: "x"))

        #expect(log.all == ["first(x)"])
        #expect(count == 1)
        _ = first
    }

    @Test("the owner form never retains the owner, and stops when the owner goes")
    func ownerNotRetained() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        weak var weakOwner: SpyListener?
        var token: BroadcastToken?
        do {
            let owner = SpyListener("owner", log: log)
            weakOwner = owner
            token = broadcaster.addHandler(for: Connectivity.self, owner: owner) { owner, event in
                owner.log.append("\(owner.name).online(\(event.isOnline))")
            }
            broadcaster.post(Connectivity(isOnline: true))
        }
        #expect(weakOwner == nil)
        #expect(broadcaster.post(Connectivity(isOnline: false)) == 1)  // the handler is alive but its owner is not
        #expect(log.all == ["owner.online(true)"])
        _ = token
    }

    @Test("closures and objects are called in one registration order")
    func interleavedOrder() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let first = SpyListener("object1", log: log)
        let second = SpyListener("object2", log: log)
        broadcaster.addListener(first)
        let tokenA = broadcaster.addHandler(for: SignedIn.self) {
            log.append("closureA.signedIn(\($0.user))")
        }
        broadcaster.addListener(second)
        let tokenB = broadcaster.addHandler(for: SignedIn.self) {
            log.append("closureB.signedIn(\($0.user))")
        }

        #expect(broadcaster.post(SignedIn(user: "u")) == 4)
        #expect(
            log.all == [
                "object1.signedIn(u)", "closureA.signedIn(u)", "object2.signedIn(u)", "closureB.signedIn(u)",
            ])
        _ = (tokenA, tokenB)
    }

    @Test("a handler called on the main actor runs there for a background post")
    @MainActor
    func handlerCalledOnTheMainActor() async {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let token = broadcaster.addHandler(for: SignedIn.self, calledOn: MainActor.shared) { event in
            MainActor.assertIsolated()
            log.append("main(\(event.user))")
        }
        let made = await Task.detached { broadcaster.post(SignedIn(user: "bg")) }.value
        await broadcaster.waitForScheduledDeliveries()
        #expect(made == 1)
        #expect(log.all == ["main(bg)"])
        _ = token
    }

    @Test("a @Sendable handler runs where the post runs, whatever code registered it")
    @MainActor
    func sendableHandlerRunsWhereThePostRuns() async {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let token = broadcaster.addHandler(for: SignedIn.self) { event in
            log.append("\(event.user)@\(MainQueueTag.isOnMainQueue ? "main queue" : "posting thread")")
        }
        let calledBeforeReturning = await Task.detached {
            broadcaster.post(SignedIn(user: "bg"))
            return log.all.count
        }.value
        #expect(calledBeforeReturning == 1)
        #expect(log.all == ["bg@posting thread"])
        _ = token
    }
}

/// Holds a token so a handler can release another handler's token.
final class TokenHolder: @unchecked Sendable {
    // @unchecked Sendable: only touched on the test's thread, inside a
    // synchronous broadcast made on that thread.
    var token: BroadcastToken?
}
