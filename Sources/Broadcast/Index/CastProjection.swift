/// The result of `listener as? P` for one listener class, kept so that a
/// broadcast can produce the `P` again without repeating the dynamic cast.
///
/// Why: the generic cast is the largest cost of a delivery (it looks the
/// conformance up in the runtime's concurrent cache every time; measured with
/// callgrind at about half the instructions of a delivery), while the weak
/// load, which any weak design pays, is the rest.
///
/// How: the bits of the cast result are copied without owning anything. They
/// are turned back into a `P` only right after a successful weak load of a
/// listener of the same class, while that strong reference is held, with the
/// first word replaced by that listener's address. The bits are kept only
/// when they provably hold nothing but the listener itself: the first word is
/// the listener's address (an existential or class reference holding it
/// inline) and the rest depends on the class only (witness tables and type
/// metadata, which are not reference counted), and the value fits five
/// words. Anything else (a bridged value, a boxed `AnyHashable`, a
/// composition too large) keeps no projection and is cast on every delivery.
///
/// Shared: one instance per class (and validity) in an index, referenced by
/// each of its members, so a member costs one word for it (a projection per
/// member cost 48 bytes per registration; Docs/PerformanceNotes.md).
/// Immutable, hence `Sendable`.
///
/// Where: a conformance isolated to the main actor only casts on the main
/// actor, so a projection made on the main queue for a listener with no actor
/// is only used on the main queue; elsewhere the delivery casts again (and,
/// as without projections, finds no conformance).
@usableFromInline
final class CastProjection: Sendable {
    @usableFromInline typealias Words = (UInt, UInt, UInt, UInt, UInt)

    @usableFromInline
    enum Validity: Sendable {
        case anywhere
        case onMainQueueOnly
    }

    /// The cast result's bits; the first word is set per listener.
    @usableFromInline let words: Words
    @usableFromInline let validity: Validity

    private init(words: Words, validity: Validity) {
        self.words = words
        self.validity = validity
    }

    /// Captures `listener`, the result of casting `object` to `P`, if its bits
    /// hold nothing but `object`; nil otherwise.
    static func make<P>(_ listener: P, of object: AnyObject, madeOnMainQueue: Bool) -> CastProjection? {
        guard MemoryLayout<P>.size <= MemoryLayout<Words>.size,
            MemoryLayout<P>.alignment <= MemoryLayout<Words>.alignment
        else { return nil }
        var words: Words = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { destination in
            withUnsafeBytes(of: listener) { source in
                destination.copyMemory(from: source)
            }
        }
        guard words.0 == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) else { return nil }
        words.0 = 0
        return CastProjection(words: words, validity: madeOnMainQueue ? .onMainQueueOnly : .anywhere)
    }

    /// `object` as the `P` whose bits are `words` (a projection's), owning
    /// the caller's strong reference to it: for a listener that is handed
    /// on (sent to an awaited call), so that making it retains nothing more
    /// than the weak load that produced `object` did.
    ///
    /// - Precondition: `object` is an instance of the class the projection
    ///   was made from.
    @inlinable
    static func listener<P>(owning object: consuming AnyObject, words: Words, as _: P.Type) -> P {
        var words = words
        // The `P` takes over this reference: its bits move into the words and
        // the slot is cleared without a release. (`Unmanaged.passRetained`
        // here retained again, and the optimizer kept `object` alive, to
        // release it, until the awaited call returned.)
        var owner: AnyObject? = consume object
        withUnsafeMutableBytes(of: &owner) { slot in
            words.0 = slot.load(as: UInt.self)
            slot.storeBytes(of: 0, as: UInt.self)
        }
        return withUnsafeMutableBytes(of: &words) { raw in
            raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: P.self).move()
        }
    }

    /// Calls `body` with `object` as the `P` whose bits are `words` (a
    /// projection's), borrowed: no copy is made, so the listener's reference
    /// count (slow for a weakly referenced object, which has a side table) is
    /// not touched.
    ///
    /// - Precondition: `object` is an instance of the class the projection
    ///   was made from, and the caller holds a strong reference to it for as
    ///   long as this call runs.
    @inlinable
    static func withListener<P, Result>(
        _ object: AnyObject, words: Words, as _: P.Type, _ body: (P) -> Result
    ) -> Result {
        var words = words
        words.0 = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        return withUnsafeMutableBytes(of: &words) { raw in
            // The bytes are a bitwise copy of a live `P`. Reading `pointee`
            // in unspecialized generic code copies it (value witness copy +
            // a retain and release through the side table); instead take the
            // bits as an owned `P` without retaining, and put them back
            // without releasing: the reference count is never touched.
            let pointer = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: P.self)
            let listener = pointer.move()
            let result = body(listener)
            pointer.initialize(to: consume listener)
            return result
        }
    }
}
