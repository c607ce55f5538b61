/// What deliveries on an actor have learned about conformances that can only
/// be checked there: `(listener type, protocol) → conforms`.
///
/// Needed because a generic cast cannot tell "does not conform" from "conforms
/// only on the main actor" when it runs off that actor (measured on Linux with
/// Swift 6.3: `object as? P` is nil off the main actor for
/// `extension Screen: @MainActor P`). Only answers learned in the listener's own
/// isolation are recorded, so an answer here is definitive.
struct ConformanceCache {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let protocolType: ObjectIdentifier
    }

    private var answers: [Key: Bool] = [:]

    func conforms(_ type: AnyObject.Type, to protocolType: Any.Type) -> Bool? {
        answers[Key(type: ObjectIdentifier(type), protocolType: ObjectIdentifier(protocolType))]
    }

    mutating func record(_ type: AnyObject.Type, conformsTo protocolType: Any.Type, _ conforms: Bool) {
        answers[Key(type: ObjectIdentifier(type), protocolType: ObjectIdentifier(protocolType))] = conforms
    }
}
