import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization

/// The scenario every host runs: a listener with no actor, a `@MainActor`
/// screen with isolated conformances, and bystanders that conform to
/// something else, all registered from the host's main-actor code; then
/// broadcasts from the host's main context and from a background thread,
/// a sticky replay, the system bridge, the listener queries and the delivery
/// explanations.
///
/// Each step checks what it can see at once (returned counts, calls made
/// before a call returns); ``finish()`` checks the rest once the host has let
/// the main actor run (every delivery made once, in order, main-actor
/// listeners only on the main actor) and prints the report.
public final class HostScenario: Sendable {
    /// What the host is, for the report and for the checks that differ.
    public struct Host: Sendable {
        /// The name printed in the report.
        public let name: String
        /// Whether the host's main context runs on the main thread (where
        /// main-actor listeners must then be called).
        public let runsOnMainThread: Bool
        /// Whether the runtime can check a main-actor-isolated conformance in
        /// the host's main context: on the main thread, or in a task on the
        /// main actor; not in a main-queue block serviced by another thread.
        public let canCheckIsolatedConformances: Bool

        /// Describes a host; see the properties.
        public init(name: String, runsOnMainThread: Bool, canCheckIsolatedConformances: Bool) {
            self.name = name
            self.runsOnMainThread = runsOnMainThread
            self.canCheckIsolatedConformances = canCheckIsolatedConformances
        }
    }

    /// The host running the scenario.
    public let host: Host
    /// The broadcaster whose listeners registered from the host's main-actor
    /// code.
    public let broadcaster = Broadcaster()
    /// The same population, registered from non-isolated code: the baseline
    /// for the cost of main-actor registrations.
    public let baselineBroadcaster = Broadcaster()
    let feed = Feed()
    let screen = Screen()
    let banner = SessionBanner()
    let meter = Meter()
    let mainActorMeter = PinnedMeter(onWorker: false)
    let workerMeter = PinnedMeter(onWorker: true)
    let worker = HostWorker()
    /// Where the meters registered with `calledOn:` listen, apart from the
    /// scenario's population: a listener of an actor counts as a scheduled
    /// call of every broadcast made elsewhere until its actor settles whether
    /// it conforms, and the population's counts are checked exactly.
    let pinnedBroadcaster = Broadcaster()
    /// Sticky state read through Observation and consumed once; made in the
    /// main context by ``checkState()``.
    private let hostState = Mutex<HostState?>(nil)
    let badges: [Badge]
    let counters: [Counter]
    let baselineFeed = Feed()
    let baselineScreen = Screen()
    let baselineBadges: [Badge]
    let baselineCounters: [Counter]
    let center = NotificationCenter()
    let bridge: SystemNotificationBridge

    private struct State {
        var failures: [String] = []
        var lines: [String] = []
        var broadcasts = 0
        var baselineBroadcasts = 0
        var unsettledCounts = 0
        var sawExactCount = false
        var bridgePosts = 0
        var stickyReplays = 0
        var unlistedFailures = 0
        var meterBroadcasts = 0

        /// Keeps the first failures word for word and counts the rest.
        mutating func fail(_ message: String) {
            if failures.count < 10 { failures.append(message) } else { unlistedFailures += 1 }
        }
    }

    private let state = Mutex(State())

    /// The gauge registered without an actor, kept for ``finish()``: by then
    /// the host has let the main actor run the job that settles it.
    private struct UnsettledGauge: Sendable {
        let broadcaster: Broadcaster
        let feed: Feed
        let gauge: MainActorGauge
    }

    private let unsettledGauge = Mutex<UnsettledGauge?>(nil)

    /// The calls one broadcast to `PostListener` makes: the feed and the screen.
    static let exactCount = 2

    /// Creates the population; nothing is registered yet.
    public init(host: Host, bystanders: Int = 100) {
        self.host = host
        badges = (0..<bystanders / 2).map { _ in Badge() }
        counters = (0..<(bystanders - bystanders / 2)).map { _ in Counter() }
        baselineBadges = (0..<bystanders / 2).map { _ in Badge() }
        baselineCounters = (0..<(bystanders - bystanders / 2)).map { _ in Counter() }
        bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center)
    }

    var bystanderCount: Int { badges.count + counters.count }

    // MARK: - Steps

    /// Registers the population: the feed from non-isolated code, the screen
    /// and the bystanders from the caller's isolation (the host's main-actor
    /// code); the baseline population entirely from non-isolated code.
    public func register(isolation: isolated (any Actor)? = #isolation) {
        expect(isolation === MainActor.shared, "the host registers from main-actor code")
        Self.registerWithoutActor(feed, on: broadcaster)
        broadcaster.addListener(screen)
        broadcaster.addListener(meter)
        let (pinned, mainActorMeter, worker, workerMeter) = (pinnedBroadcaster, mainActorMeter, worker, workerMeter)
        MainActor.assumeIsolated { _ = pinned.addListener(mainActorMeter, calledOn: MainActor.shared) }
        pinned.addListener(workerMeter, calledOn: worker)  // a Sendable listener is handed over from any code
        for badge in badges { broadcaster.addListener(badge) }
        for counter in counters { broadcaster.addListener(counter) }
        Self.registerWithoutActor(baselineFeed, on: baselineBroadcaster)
        Self.registerWithoutActor(baselineScreen, on: baselineBroadcaster)
        for badge in baselineBadges { Self.registerWithoutActor(badge, on: baselineBroadcaster) }
        for counter in baselineCounters { Self.registerWithoutActor(counter, on: baselineBroadcaster) }
    }

    private static func registerWithoutActor(_ listener: any AnyObject & Sendable, on broadcaster: Broadcaster) {
        broadcaster.addListener(listener, isolation: nil)
    }

    /// Broadcasts `count` times from the calling context and checks each
    /// returned count.
    ///
    /// - Parameters:
    ///   - count: How many broadcasts to make.
    ///   - settlesLater: Whether this context cannot check an isolated
    ///     conformance (a main-queue block off the main thread, or a background
    ///     thread after a registration made there). A main-actor listener whose
    ///     conformance was never checked on the main actor is then counted as a
    ///     scheduled call; once the main actor has run one, counts are exact.
    ///     So a count may exceed the exact one only until the first exact count
    ///     since the last registration.
    public func broadcast(count: Int, settlesLater: Bool = false) {
        for _ in 0..<count {
            let number = state.withLock { state in
                defer { state.broadcasts += 1 }
                return state.broadcasts
            }
            let returned = broadcaster.postCreated(number)
            checkCount(returned, broadcast: number, settlesLater: settlesLater)
        }
    }

    private func checkCount(_ returned: Int, broadcast number: Int, settlesLater: Bool) {
        state.withLock { state in
            if returned == Self.exactCount {
                state.sawExactCount = true
            } else if settlesLater, !state.sawExactCount, returned > Self.exactCount,
                returned <= Self.exactCount + bystanderCount + 1
            {
                state.unsettledCounts += 1
            } else {
                state.fail(
                    "broadcast \(number) returned \(returned), expected \(Self.exactCount)"
                        + (state.sawExactCount ? " (counts were already exact)" : ""))
            }
        }
    }

    /// Broadcasts `count` times from a new thread (not a task), and returns
    /// once it has finished; the screen's calls are scheduled on the main
    /// actor.
    public func broadcastFromBackgroundThread(count: Int) {
        HostProbe.onBackgroundThread { [self] in broadcastHere(count: count) }
    }

    /// The body of ``broadcastFromBackgroundThread(count:)``, for hosts that
    /// start the thread themselves.
    public func broadcastHere(count: Int) {
        expect(!HostProbe.isMainThread && !HostProbe.isOnMainQueue, "the background thread is off the main queue")
        checkExplanations(onMainContext: false)
        // A Sendable listener registered from the host's main-actor code is
        // called here, before the broadcast returns.
        // (The count it returns also holds the main-actor bystanders whose
        // conformance this thread cannot check: "Counts and the barrier".)
        let servedBefore = meter.served.load(ordering: .relaxed)
        broadcaster.broadcast(to: MeterListener.self) { $0.requestServed() }
        pinnedBroadcaster.broadcast(to: MeterListener.self) { $0.requestServed() }
        state.withLock { $0.meterBroadcasts += 1 }
        let served = meter.served.load(ordering: .relaxed) - servedBefore
        expect(
            served == 1 && meter.servedOnMainThread.load(ordering: .relaxed) == 0,
            "a Sendable listener registered from main-actor code was not called on the broadcasting thread "
                + "(\(served) calls before the broadcast returned)")
        // The same listener registered with `calledOn:` stays on its actor:
        // ``finish()`` checks where each of their calls ran.
        // A listener registered where its conformance could not be checked
        // is still unsettled here.
        broadcast(count: count, settlesLater: !host.canCheckIsolatedConformances)
    }

    /// Measures ns per broadcast: this population (registered from main-actor
    /// code) against the baseline (registered from non-isolated code), both
    /// broadcast from the calling context, in alternating rounds.
    public func measure(rounds: Int = 10, broadcastsPerRound: Int = 2_000) {
        let clock = ContinuousClock()
        var mainActorRegistered = Duration.zero
        var nonisolatedRegistered = Duration.zero
        var baselineCalls = 0
        for _ in 0..<rounds {
            mainActorRegistered += clock.measure { broadcast(count: broadcastsPerRound) }
            nonisolatedRegistered += clock.measure {
                for _ in 0..<broadcastsPerRound {
                    let number = state.withLock { state in
                        defer { state.baselineBroadcasts += 1 }
                        return state.baselineBroadcasts
                    }
                    baselineCalls = baselineBroadcaster.postCreated(number)
                }
            }
        }
        let total = Double(rounds * broadcastsPerRound)
        let mainNanoseconds = Self.nanoseconds(mainActorRegistered) / total
        let baselineNanoseconds = Self.nanoseconds(nonisolatedRegistered) / total
        report(
            String(
                format: "ns per broadcast (1 + 1 listeners among %d others): registered from main-actor code %.1f "
                    + "(%d calls), from non-isolated code %.1f (%d calls), ratio %.2f (target <= 1.5)",
                bystanderCount, mainNanoseconds, Self.exactCount, baselineNanoseconds, baselineCalls,
                mainNanoseconds / baselineNanoseconds))
    }

    /// Broadcasts `count` times in a loop (one event handler broadcasting
    /// repeatedly) and reports how resident memory moved.
    ///
    /// - Parameters:
    ///   - count: How many broadcasts to make.
    ///   - label: Names the loop in the report.
    ///   - limit: The growth allowed, in bytes; nil to report only (a loop
    ///     whose scheduled calls wait for the main actor holds them until it
    ///     runs; the next loop, after they ran, must then be flat).
    ///   - settlesLater: See ``broadcast(count:settlesLater:)``.
    public func broadcastLoop(count: Int, label: String, limit: Int?, settlesLater: Bool = false) {
        let before = HostProbe.residentBytes()
        broadcast(count: count, settlesLater: settlesLater)
        guard let before, let after = HostProbe.residentBytes() else {
            report("resident memory: not measured on this platform")
            return
        }
        let growth = after - before
        report(
            "resident memory over the \(label) (\(count) broadcasts): \(growth >= 0 ? "+" : "")\(growth / 1024) KiB"
                + (limit == nil ? " (reported, not judged)" : ""))
        if let limit {
            expect(growth <= limit, "resident memory grew by \(growth / 1024) KiB over the \(label)")
        }
    }

    /// The growth a loop of broadcasts may cause once nothing is scheduled
    /// per broadcast: allocator noise, not a per-broadcast cost.
    public static let flatMemoryLimit = 2 << 20

    /// A sticky broadcast, then a late `@MainActor` listener that asks for it,
    /// both from the calling context: the replay runs before `addListener`
    /// returns where the context can call the screen, else it is scheduled.
    public func replaySticky(isolation: isolated (any Actor)? = #isolation) {
        state.withLock { state in
            state.sawExactCount = false
            state.stickyReplays += 1
        }
        broadcaster.broadcast(to: SessionListener.self, sticky: true) { $0.sessionChanged(signedIn: true) }
        broadcaster.addListener(banner, receivingSticky: true)
        if host.canCheckIsolatedConformances {
            expect(banner.log.calls == 1, "the sticky replay ran before addListener returned")
        }
    }

    /// Posts an application notification from the calling context and from
    /// a background thread; the bridge delivers both to the screen on the
    /// main actor (before `post` returns where the context can call it).
    public func postApplicationNotifications() {
        let simulator = SystemNotificationSimulator(center: center)
        simulator.applicationDidEnterBackground()
        if host.canCheckIsolatedConformances {
            expect(screen.applicationLog.calls == 1, "a notification posted on the main thread was delivered at once")
        }
        HostProbe.onBackgroundThread { simulator.applicationDidEnterBackground() }
        state.withLock { $0.bridgePosts += 2 }
    }

    /// Checks the queries from the calling context: the count is exact, and
    /// `listeners(of:)` includes the screen wherever its conformance can be
    /// checked.
    public func checkQueries() {
        let count = broadcaster.listenerCount(of: PostListener.self)
        expect(count == Self.exactCount, "listenerCount(of:) is \(count), expected \(Self.exactCount)")
        // Where the main context cannot check the screen's conformance, the
        // screen is not a `PostListener` here, so it is not handed out (a
        // broadcast from here schedules its call on the main actor).
        let expectedListed = host.canCheckIsolatedConformances ? 2 : 1
        let listed = broadcaster.listeners(of: PostListener.self).count
        expect(listed == expectedListed, "listeners(of:) returned \(listed), expected \(expectedListed)")
        checkExplanations(onMainContext: true)
    }

    /// Checks `deliveryExplanation` from the calling context against what the
    /// broadcasts here do: the feed is called here; the screen is called here
    /// in the main context where its conformance can be checked, and
    /// scheduled on the main actor (if it conforms there) from a background
    /// thread or a main context that cannot check it; a settled bystander
    /// does not conform.
    ///
    /// - Parameter onMainContext: Whether this is the host's main context
    ///   (else a background thread).
    public func checkExplanations(onMainContext: Bool) {
        let place = onMainContext ? "in the main context" : "on a background thread"
        let feedAnswer = broadcaster.deliveryExplanation(for: feed, to: PostListener.self)
        expect(feedAnswer == .calledHere, "feed \(place): \(feedAnswer)")
        let screenAnswer = broadcaster.deliveryExplanation(for: screen, to: PostListener.self)
        let expected: DeliveryExplanation =
            onMainContext && host.canCheckIsolatedConformances
            ? .calledHere : .scheduledIfConforming(on: MainActor.shared)
        expect(screenAnswer == expected, "screen \(place): \(screenAnswer), expected \(expected)")
        if let badge = badges.first {
            let badgeAnswer = broadcaster.deliveryExplanation(for: badge, to: PostListener.self)
            expect(badgeAnswer == .doesNotConform, "bystander \(place): \(badgeAnswer)")
        }
    }

    /// The steps every host runs in its main context after the broadcast
    /// loops, in this order: the cost against the baseline, the queries and
    /// explanations, a sticky replay to a late listener registered from the
    /// caller's isolation, the bridge's notifications, and a listener whose
    /// conformance is isolated to the main actor registered from
    /// non-isolated code.
    public func checkMainContext(isolation: isolated (any Actor)? = #isolation) {
        checkCalledOn()
        checkState()
        measure()
        checkQueries()
        replaySticky()
        postApplicationNotifications()
        checkIsolatedConformanceRegisteredWithoutActor()
        checkEventListenerOnTheMainThread()
    }

    /// An `EventListener` whose conformance is isolated to the main actor,
    /// registered from non-isolated code: on the main thread, posts reach it
    /// at once, in order, also from inside another queue's `sync` block
    /// (where the main thread runs, but the main queue is not the current
    /// queue); a post from a background thread never calls it there.
    func checkEventListenerOnTheMainThread() {
        guard host.runsOnMainThread else { return }
        let broadcaster = Broadcaster(onDiagnostic: { _ in })
        let gauge = MainActorEventGauge()
        Self.registerWithoutActor(gauge, on: broadcaster)
        var counts = [broadcaster.post(HostEvent(number: 0)), broadcaster.post(HostEvent(number: 1))]
        counts.append(DispatchQueue(label: "another queue").sync { broadcaster.post(HostEvent(number: 2)) })
        let callsOnTheMainThread = gauge.log.calls
        let background = HostProbe.onBackgroundThread { broadcaster.post(HostEvent(number: 3)) }
        expect(
            counts == [1, 1, 1] && callsOnTheMainThread == 3 && gauge.log.outOfOrder == 0,
            "EventListener on the main thread: counts \(counts), \(callsOnTheMainThread) calls, "
                + "\(gauge.log.outOfOrder) out of order")
        expect(
            background == 0 && gauge.log.calls == 3 && gauge.log.offMainThread == 0,
            "EventListener on the main thread: a background post returned \(background) and the gauge had "
                + "\(gauge.log.calls) calls, \(gauge.log.offMainThread) off the main thread")
        report("EventListener on the main thread: \(callsOnTheMainThread) calls, one inside another queue's sync block")
    }

    /// A gauge whose conformance is isolated to the main actor
    /// (`extension MainActorGauge: @MainActor PostListener`), registered from
    /// non-isolated code, so it has no actor: a broadcast from the main
    /// context calls it where the conformance can be checked, and a
    /// broadcast from a background thread never calls it.
    ///
    /// Why in a real process, compiled with optimisation in a client
    /// module: the library's delivery loop is inlined into the module that
    /// broadcasts (this one), and a cast specialised there for a concrete
    /// protocol does not check isolated conformances (`object as? P`
    /// succeeds off the main actor). Only the library's generic cast
    /// refuses it. If that cast were ever specialised into client code, the
    /// background broadcast would call the gauge off the main actor, and
    /// this check would fail.
    public func checkIsolatedConformanceRegisteredWithoutActor(isolation: isolated (any Actor)? = #isolation) {
        // Debug builds report this registration (on purpose here) as a
        // `BroadcastDiagnostic`; keep it off standard error.
        let broadcaster = Broadcaster(onDiagnostic: { _ in })
        let feed = Feed()
        let gauge = MainActorGauge()
        Self.registerWithoutActor(feed, on: broadcaster)
        Self.registerWithoutActor(gauge, on: broadcaster)

        // From the main context first: the index then keeps the gauge's cast
        // result where it could be made, valid on the main queue only, so the
        // background broadcast below must cast again.
        let reachable = host.canCheckIsolatedConformances
        let fromMainContext = broadcaster.postCreated(0)
        expect(
            fromMainContext == (reachable ? 2 : 1),
            "isolated conformance registered without actor: a main-context broadcast returned \(fromMainContext)")
        expect(
            gauge.log.calls == (reachable ? 1 : 0),
            "isolated conformance registered without actor: called \(gauge.log.calls) times from the main context")

        let callsFromMainContext = gauge.log.calls
        let backgroundCount = HostProbe.onBackgroundThread { broadcaster.postCreated(1) }
        let callsFromBackground = gauge.log.calls - callsFromMainContext
        expect(
            backgroundCount == 1,
            "isolated conformance registered without actor: a background broadcast returned \(backgroundCount), "
                + "expected 1 (the feed)")
        expect(
            callsFromBackground == 0 && gauge.log.offMainQueue == 0,
            "isolated conformance registered without actor: called by a broadcast from a background thread "
                + "(\(gauge.log.offMainQueue) calls off the main queue)")
        expect(
            feed.log.calls == 2, "isolated conformance registered without actor: feed called \(feed.log.calls) times")
        report(
            "isolated conformance registered without actor: \(callsFromMainContext) call(s) from the main context, "
                + "\(callsFromBackground) from a background thread")
        // The background broadcast sent the gauge's call to the main actor, uncounted: its cast there, once
        // the host lets the main actor run, makes the call and settles the gauge.
        unsettledGauge.withLock { $0 = UnsettledGauge(broadcaster: broadcaster, feed: feed, gauge: gauge) }
    }

    /// Once the host has let the main actor run, the gauge of
    /// ``checkIsolatedConformanceRegisteredWithoutActor()`` is settled: a
    /// background broadcast schedules its call on the main actor, as for a
    /// listener registered from main-actor code, and still never calls it
    /// off the main actor.
    private func checkSettledGauge() {
        guard let check = unsettledGauge.withLock({ $0 }) else { return }
        expect(
            check.gauge.log.calls == 2,
            "isolated conformance registered without actor: once the main actor had run, the gauge had "
                + "\(check.gauge.log.calls) calls, expected 2 (the main context's broadcast and the background one)")
        let count = HostProbe.onBackgroundThread { check.broadcaster.postCreated(2) }
        expect(
            count == 2,
            "isolated conformance registered without actor: once the main actor had run, a background broadcast "
                + "returned \(count), expected 2 (the feed, and the gauge's call scheduled on the main actor)")
        expect(
            check.gauge.log.offMainQueue == 0,
            "isolated conformance registered without actor: \(check.gauge.log.offMainQueue) calls off the main queue")
        report(
            "isolated conformance registered without actor: settled by the main actor, \(count) calls made or scheduled"
        )
    }

    /// A broadcast from the main context to the thread-safe meters: the one
    /// registered with `calledOn: MainActor.shared` is called here, before
    /// the broadcast returns (the main context runs on the main actor, where
    /// no scheduled call can run meanwhile); the one registered with
    /// `calledOn:` a worker actor is scheduled there (``finish()`` checks
    /// that each of its calls ran on the worker).
    func checkCalledOn() {
        let before = mainActorMeter.log.calls
        pinnedBroadcaster.broadcast(to: MeterListener.self) { $0.requestServed() }
        state.withLock { $0.meterBroadcasts += 1 }
        expect(
            mainActorMeter.log.calls == before + 1,
            "a listener called on the main actor was not called by a broadcast from the main context")
    }

    /// The state steps: an `ObservableStickyEvent` made here, then sticky
    /// posts from here and from a background thread, and a link that two
    /// consuming handlers compete for; ``finish()`` checks the outcome.
    func checkState() {
        let made = HostState()
        hostState.withLock { $0 = made }
        made.post()
    }

    /// Whether every delivery the steps so far have made or scheduled has run.
    public var allDeliveriesArrived: Bool {
        let (broadcasts, bridgePosts, replays, meterBroadcasts) = state.withLock {
            ($0.broadcasts, $0.bridgePosts, $0.stickyReplays, $0.meterBroadcasts)
        }
        let stateArrived = hostState.withLock { $0 }?.arrived ?? true
        return stateArrived && screen.log.calls >= broadcasts && banner.log.calls >= replays
            && screen.applicationLog.calls >= bridgePosts && mainActorMeter.log.calls >= meterBroadcasts
            && workerMeter.log.calls >= meterBroadcasts
    }

    // MARK: - The verdict

    /// Checks every delivery, prints the report, and returns the exit status.
    public func finish() -> Int32 {
        let (broadcasts, baselineBroadcasts, bridgePosts, unsettled, replays) = state.withLock {
            ($0.broadcasts, $0.baselineBroadcasts, $0.bridgePosts, $0.unsettledCounts, $0.stickyReplays)
        }
        checkLog(feed.log, "feed", calls: broadcasts, onMainActor: false)
        checkLog(screen.log, "screen", calls: broadcasts, onMainActor: true)
        checkLog(banner.log, "sticky replay to a late listener", calls: replays, onMainActor: true)
        checkLog(screen.applicationLog, "screen's application events", calls: bridgePosts, onMainActor: true)
        checkLog(baselineFeed.log, "baseline feed", calls: baselineBroadcasts, onMainActor: false)
        let meterBroadcasts = state.withLock { $0.meterBroadcasts }
        checkLog(mainActorMeter.log, "listener called on the main actor", calls: meterBroadcasts, onMainActor: true)
        checkLog(workerMeter.log, "listener called on a worker actor", calls: meterBroadcasts, onMainActor: false)
        let offWorker = workerMeter.offWorker.load(ordering: .relaxed)
        expect(offWorker == 0, "listener called on a worker actor: \(offWorker) calls off the worker")
        if let hostState = hostState.withLock({ $0 }) {
            let shown = MainActor.assumeIsolated { hostState.session.value?.user }
            expect(shown == "background", "observed sticky state shows \(shown ?? "nothing"), expected the last")
            checkLog(hostState.consumed, "a link consumed once by two consuming handlers", calls: 1, onMainActor: true)
            expect(
                hostState.broadcaster.stickyEvent(for: HostLink.self) == nil,
                "the consumed link is still kept as sticky state")
        }
        let bystanderCalls =
            (badges + baselineBadges).map(\.log.calls).reduce(0, +)
            + (counters + baselineCounters).map(\.log.calls).reduce(0, +)
        expect(bystanderCalls == 0, "bystanders were called \(bystanderCalls) times")
        checkSettledGauge()
        report("broadcasts: \(broadcasts) (\(unsettled) counted bystanders before the main actor settled them)")
        let (failures, unlisted) = state.withLock { ($0.failures, $0.unlistedFailures) }
        let lines = state.withLock { $0.lines }
        print("host \(host.name):")
        for line in lines { print("  " + line) }
        for failure in failures { print("  FAILED: " + failure) }
        if unlisted > 0 { print("  FAILED: \(unlisted) more") }
        print("host \(host.name): \(failures.isEmpty ? "passed" : "FAILED (\(failures.count + unlisted) checks)")")
        return failures.isEmpty ? 0 : 1
    }

    private func checkLog(_ log: DeliveryLog, _ name: String, calls: Int, onMainActor: Bool) {
        expect(log.calls == calls, "\(name): \(log.calls) calls, expected \(calls)")
        expect(log.outOfOrder == 0, "\(name): \(log.outOfOrder) calls out of order")
        guard onMainActor else { return }
        expect(log.offMainQueue == 0, "\(name): \(log.offMainQueue) calls off the main queue")
        if host.runsOnMainThread {
            expect(log.offMainThread == 0, "\(name): \(log.offMainThread) calls off the main thread")
        }
    }

    // MARK: - Recording

    func expect(_ condition: Bool, _ failure: @autoclosure () -> String) {
        guard !condition else { return }
        let message = failure()
        state.withLock { $0.fail(message) }
    }

    func report(_ line: String) {
        state.withLock { $0.lines.append(line) }
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}
