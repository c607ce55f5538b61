/// A strong reference to a listener object that a token, registration or
/// stream owns (the broadcaster holds a token's handler too, until the token
/// unregisters it, and any other listener weakly).
final class RetainedListener: @unchecked Sendable {
    // @unchecked Sendable: this box only keeps `object` alive. Nothing ever
    // reads, calls or mutates it through the box, so sharing the box across
    // threads shares no access to the listener's state.
    private let object: AnyObject

    init(_ object: AnyObject) {
        self.object = object
    }
}
