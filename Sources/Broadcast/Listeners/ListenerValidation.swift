import Foundation
import Synchronization

/// Refuses listeners that a weak table could never call: value types boxed as
/// `AnyObject`.
///
/// `someStruct as AnyObject`, `42 as AnyObject` and `"text" as AnyObject`
/// produce a fresh box (or a bridged `NSNumber` / `NSString`) that nothing else
/// references, so a weak registration would vanish at once and the "listener"
/// would silently never be called, a known complaint against peers. Refusing
/// it, with a message, turns that silent failure into a visible one.
enum ListenerValidation {
    private static let reportedTypes = Mutex<Set<ObjectIdentifier>>([])
    /// `isBoxedValue` answered once per class: it depends only on the type, and
    /// costs ~10,000 instructions (ten Foundation class casts and a type name).
    private static let verdicts = Mutex<[ObjectIdentifier: Bool]>([:])
    /// The class accepted last, checked before `verdicts`.
    ///
    /// Registrations come in runs of one class, and the lock and hash cost
    /// more than the rest of the check. Relaxed ordering suffices: any value it holds is a class
    /// already accepted, and a verdict never changes.
    private static let lastAccepted = Atomic<UInt>(0)

    /// Whether `listener` can be registered; reports a refusal once per type.
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

    /// Whether `object` is a box around a value rather than a class instance
    /// someone else owns.
    static func isBoxedValue(_ object: AnyObject) -> Bool {
        // The box Swift makes for a struct or enum cast to AnyObject.
        if String(describing: type(of: object)) == "__SwiftValue" { return true }
        // The Foundation classes that Swift value types bridge to.
        return object is NSNumber || object is NSString || object is NSArray || object is NSDictionary
            || object is NSSet || object is NSData || object is NSDate || object is NSURL
            || object is NSValue || object is NSNull
    }
}
