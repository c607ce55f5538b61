import Broadcast
import Testing

/// The sequential reference model of a broadcaster: a plain ordered list of
/// registrations, with liveness tracked explicitly.
///
/// It states the semantics as directly as possible:
/// - `add` appends unless the listener is registered (then nothing changes);
///   `remove` drops its registration; re-adding appends a new registration.
/// - A listener is alive while the test holds it or while one of its calls is
///   on the stack (the broadcaster's caller keeps it alive for the call); a
///   dead listener's registration disappears.
/// - A broadcast iterates a snapshot of the registrations matching its target
///   and calls each one that is *still the same registration* when its turn
///   comes: added-during is not in the snapshot, removed-or-released-during is
///   skipped, removed-and-re-added-during is a new registration and skipped.
/// - Nested broadcasts run to completion inside the call that made them.
struct ReferenceModel {
    struct Registration {
        let listener: Int
        let serial: Int
    }

    private(set) var kinds: [Int: ModelKind] = [:]
    private(set) var held: Set<Int> = []
    private var stack: [Int] = []
    private(set) var registrations: [Registration] = []
    private var nextSerial = 0
    var log: [ModelEvent] = []

    mutating func apply(_ action: ModelAction) {
        switch action {
        case .create(let id, let kind, let register):
            kinds[id] = kind
            held.insert(id)
            if register { add(id) }
        case .add(let id):
            guard held.contains(id) else { return }
            add(id)
        case .remove(let id):
            guard held.contains(id) else { return }
            registrations.removeAll { $0.listener == id }
        case .release(let id):
            guard held.remove(id) != nil else { return }
            if !stack.contains(id) { die(id) }
        case .broadcast(let plan):
            let count = broadcast(plan)
            log.append(.returned(plan: plan.id, count: count))
        }
    }

    /// Registered, live listeners matching `target`, in delivery order.
    func members(of target: ModelTarget) -> [Int] {
        registrations.filter { kinds[$0.listener]!.targets.contains(target) }.map(\.listener)
    }

    var liveCount: Int { registrations.count }

    private mutating func add(_ id: Int) {
        guard !registrations.contains(where: { $0.listener == id }) else { return }
        registrations.append(Registration(listener: id, serial: nextSerial))
        nextSerial += 1
    }

    private mutating func die(_ id: Int) {
        registrations.removeAll { $0.listener == id }
    }

    private mutating func broadcast(_ plan: ModelPlan) -> Int {
        let snapshot = registrations.filter { kinds[$0.listener]!.targets.contains(plan.target) }
        var count = 0
        for registration in snapshot {
            guard registrations.contains(where: { $0.serial == registration.serial }) else { continue }
            let id = registration.listener
            count += 1
            log.append(.delivered(plan: plan.id, listener: id))
            stack.append(id)
            for action in plan.reactions[id] ?? [] { apply(action) }
            stack.removeLast()
            if !held.contains(id), !stack.contains(id) { die(id) }
        }
        return count
    }
}

/// The real side: a `Broadcaster`, real listener objects, and the log they
/// write when called.
///
/// Performs the same operations as ``ReferenceModel``.
final class ModelHarness: @unchecked Sendable {
    // @unchecked Sendable: confined to the one task that runs the sequence.
    // Every call into it is synchronous on that task's thread: listeners are
    // registered with no actor, or (main-actor mode) on the main actor the
    // sequence runs on, so no delivery is ever scheduled elsewhere. The
    // conformance only lets main-actor mode hand it to `assumeIsolated`.
    let broadcaster = Broadcaster()
    /// The test's strong references; dropping one releases the listener.
    private(set) var held: [Int: ModelListener] = [:]
    private var plans: [Int: ModelPlan] = [:]
    var log: [ModelEvent] = []
    /// Main-actor mode: reactions run their operations from main-actor code.
    let reactOnMainActor: Bool

    init(reactOnMainActor: Bool) {
        self.reactOnMainActor = reactOnMainActor
    }

    /// Called by a listener when a broadcast reaches it.
    func delivered(listener: Int, plan: Int) {
        log.append(.delivered(plan: plan, listener: listener))
        for action in plans[plan]?.reactions[listener] ?? [] {
            if reactOnMainActor {
                MainActor.assumeIsolated { apply(action, awaited: false) }
            } else {
                apply(action, awaited: false)
            }
        }
    }

    /// A top-level operation.
    ///
    /// `awaited` broadcasts count their calls and wait with the barrier
    /// (`countedBroadcast`).
    func perform(_ action: ModelAction, awaited: Bool, isolation: isolated (any Actor)? = #isolation) async {
        if awaited, case .broadcast(let plan) = action {
            register(plan)
            let count = await sendCountingCalls(plan)
            log.append(.returned(plan: plan.id, count: count))
        } else {
            apply(action, awaited: false)
        }
    }

    private func apply(_ action: ModelAction, awaited: Bool, isolation: isolated (any Actor)? = #isolation) {
        switch action {
        case .create(let id, let kind, let register):
            let listener = kind.make(id: id, harness: self)
            held[id] = listener
            if register { #expect(broadcaster.addListenerAsInSwift5(listener)) }
        case .add(let id):
            if let listener = held[id] { broadcaster.addListenerAsInSwift5(listener) }
        case .remove(let id):
            if let listener = held[id] { broadcaster.removeListener(listener) }
        case .release(let id):
            held[id] = nil
        case .broadcast(let plan):
            register(plan)
            let count = send(plan)
            log.append(.returned(plan: plan.id, count: count))
        }
    }

    /// Has the main actor settle every listener class for every target first.
    ///
    /// A listener with no actor whose cast fails off the main actor has its
    /// call sent there until the main actor's cast settles it, in jobs that
    /// would otherwise run beside the sequence's own thread. Leaves no
    /// listener, log or plan behind.
    func settleListenerClasses() async {
        let listeners = ModelKind.allCases.map { $0.make(id: -1 - $0.rawValue, harness: self) }
        for listener in listeners { broadcaster.addListenerAsInSwift5(listener) }
        for target in ModelTarget.allCases { _ = send(ModelPlan(id: -1, target: target, reactions: [:])) }
        await broadcaster.waitForScheduledDeliveries()
        for listener in listeners { broadcaster.removeListener(listener) }
        log = []
    }

    private func register(_ plan: ModelPlan) {
        for plan in plan.allPlans { plans[plan.id] = plan }
    }

    private func send(_ plan: ModelPlan, isolation: isolated (any Actor)? = #isolation) -> Int {
        let id = plan.id
        switch plan.target {
        case .a: return broadcaster.broadcast(to: ModelPA.self) { $0.receiveA(id) }
        case .b: return broadcaster.broadcast(to: ModelPB.self) { $0.receiveB(id) }
        case .c: return broadcaster.broadcast(to: ModelPC.self) { $0.receiveC(id) }
        case .classA: return broadcaster.broadcast(to: ModelA.self) { $0.receiveClass(id) }
        }
    }

    private func sendCountingCalls(_ plan: ModelPlan, isolation: isolated (any Actor)? = #isolation) async -> Int {
        let id = plan.id
        switch plan.target {
        case .a: return await broadcaster.countedBroadcast(to: ModelPA.self) { $0.receiveA(id) }
        case .b: return await broadcaster.countedBroadcast(to: ModelPB.self) { $0.receiveB(id) }
        case .c: return await broadcaster.countedBroadcast(to: ModelPC.self) { $0.receiveC(id) }
        case .classA: return await broadcaster.countedBroadcast(to: ModelA.self) { $0.receiveClass(id) }
        }
    }

    /// What `listeners(of:)` returns for `target`, as listener ids.
    func observedMembers(of target: ModelTarget) -> [Int] {
        switch target {
        case .a: broadcaster.listeners(of: ModelPA.self).map { ($0 as! ModelListener).id }
        case .b: broadcaster.listeners(of: ModelPB.self).map { ($0 as! ModelListener).id }
        case .c: broadcaster.listeners(of: ModelPC.self).map { ($0 as! ModelListener).id }
        case .classA: broadcaster.listeners(of: ModelA.self).map(\.id)
        }
    }

    func observedCount(of target: ModelTarget) -> Int {
        switch target {
        case .a: broadcaster.listenerCount(of: ModelPA.self)
        case .b: broadcaster.listenerCount(of: ModelPB.self)
        case .c: broadcaster.listenerCount(of: ModelPC.self)
        case .classA: broadcaster.listenerCount(of: ModelA.self)
        }
    }
}
