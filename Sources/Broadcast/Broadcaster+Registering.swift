import Foundation
import Synchronization

extension Broadcaster {
    /// Registers `listener`, as every `addListener` does: called on
    /// `isolation`'s actor where its conformance requires it, or always
    /// when `isSendable` is false; `caller` is where the registering code
    /// runs (package access: the bridge's Swift 5 forms forward here).
    package func add(
        _ listener: consuming AnyObject,
        isSendable: Bool,
        receivingSticky: Bool,
        isolation: (any Actor)?,
        registeringFrom caller: isolated (any Actor)? = #isolation,
        fileID: StaticString,
        line: UInt
    ) -> Bool {
        #if DEBUG
            let check = UnretainedListenerCheck(copy listener, fileID: fileID, line: line)
        #endif
        let accepted = ListenerValidation.accepts(listener)
        if accepted {
            let entry = ListenerEntry(
                object: copy listener, isolation: isolation, onlyProtocol: nil, isSendable: isSendable,
                conformanceMayBeIsolated: true, registrationSite: RegistrationSite(fileID: fileID, line: line))
            register(entry, receivingSticky: receivingSticky, from: caller)
        }
        // Lets go of the caller's reference now, with no lock held, so that the
        // debug check sees an object nothing else holds released.
        _ = consume listener
        #if DEBUG
            if accepted { check.reportIfReleased(to: self) }
        #endif
        return accepted
    }

    /// The one path behind every way of registering: adds `entry`, then
    /// replays in sticky order (those for its actor enqueued first); false if
    /// its object was registered under the same key already.
    @discardableResult
    func register(_ entry: ListenerEntry, receivingSticky: Bool, from isolation: (any Actor)?) -> Bool {
        let plan = storage.add(entry, receivingSticky: receivingSticky)
        guard plan.added else { return false }
        var context = DeliveryContext(isolation: isolation)
        if !plan.protocolsToSettle.isEmpty {
            if entry.isSettledByMainActor, !context.castsAreDefinitive(on: MainActor.shared) {
                askMainActorToCast(entry, for: plan)
            } else {
                settle(entry, for: plan.protocolsToSettle, knowing: plan.known, in: &context)
            }
        }
        var callsHere: [() -> Void] = []
        for sticky in plan.replays {
            sticky.planReplay(to: entry, by: self, in: &context, callsHere: &callsHere)
        }
        for call in callsHere { call() }
        return true
    }

    // For an entry registered where a cast for the actor that settles it
    // (its own; the main actor for a listener with no actor) is definitive:
    // records, for every existing index, whether its class is not a `P`
    // there. An index that took it in later, off that actor, could not tell,
    // and would schedule calls for it until the actor did.
    private func settle(
        _ entry: ListenerEntry, for protocols: [Any.Type], knowing known: KnownNonconformances,
        in context: inout DeliveryContext
    ) {
        guard let actor = Routing.actorSettling(entry), context.castsAreDefinitive(on: actor),
            let object = entry.liveObject
        else {
            return
        }
        var learned: [(LearnedNonconformance, ObjectIdentifier)] = []
        for protocolType in protocols {
            learned += Self.nonconformances(of: object, entry, as: protocolType, knowing: known, in: &context)
        }
        guard !learned.isEmpty else { return }
        storage.settle(entry, proving: learned)
    }

    private static func nonconformances<P>(
        of object: AnyObject, _ entry: ListenerEntry, as _: P.Type, knowing known: KnownNonconformances,
        in context: inout DeliveryContext
    ) -> [(LearnedNonconformance, ObjectIdentifier)] {
        var learned: [LearnedNonconformance] = []
        _ = HandlerRouting.admits(object, of: entry, as: P.self, knowing: known, in: &context, learned: &learned)
        return learned.map { ($0, ObjectIdentifier(P.self)) }
    }

    func unregister(_ key: EntryKey) {
        storage.remove(key)
    }

    /// Unregisters `entry` if it is still the one registered under its key.
    func unregister(_ entry: ListenerEntry) {
        storage.remove(entry)
    }
}

/// Refuses listeners a weak table could never call: values boxed as
/// `AnyObject` (`someStruct as AnyObject`, `42 as AnyObject`), a fresh box
/// nothing else references, which would vanish at once and never be called.
enum ListenerValidation {
    private static let reportedTypes = Mutex<Set<ObjectIdentifier>>([])
    /// One verdict per class: the check costs about 10,000 instructions.
    private static let verdicts = Mutex<[ObjectIdentifier: Bool]>([:])
    /// The class accepted last: registrations come in runs of one class
    /// (relaxed suffices: any value it holds is a class accepted for good).
    private static let lastAccepted = Atomic<UInt>(0)

    static func accepts(_ listener: AnyObject) -> Bool {
        let typeID = ObjectIdentifier(type(of: listener))
        if lastAccepted.load(ordering: .relaxed) == UInt(bitPattern: typeID) { return true }
        let isBoxed: Bool
        if let known = verdicts.withLock({ $0[typeID] }) {
            isBoxed = known
        } else {
            isBoxed = isBoxedValue(listener)
            verdicts.withLock { $0[typeID] = isBoxed }
        }
        guard isBoxed else {
            lastAccepted.store(UInt(bitPattern: typeID), ordering: .relaxed)
            return true
        }
        let listenerType: AnyObject.Type = type(of: listener)
        let isFirstReport = reportedTypes.withLock { $0.insert(ObjectIdentifier(listenerType)).inserted }
        if isFirstReport {
            let message =
                "Broadcast: refused to register a \(listenerType) as a listener: it is a value boxed as AnyObject, "
                + "which a weak listener table would release at once. Listeners must be class instances.\n"
            FileHandle.standardError.write(Data(message.utf8))
        }
        return false
    }

    /// Swift's box for a struct or enum, or a Foundation class a value bridges to.
    static func isBoxedValue(_ object: AnyObject) -> Bool {
        if String(describing: type(of: object)) == "__SwiftValue" { return true }
        return object is NSNumber || object is NSString || object is NSArray || object is NSDictionary
            || object is NSSet || object is NSData || object is NSDate || object is NSURL
            || object is NSValue || object is NSNull
    }
}
