/// The result of `listener as? P`, kept so that a broadcast can produce the
/// `P` again without repeating the dynamic cast.
///
/// Why: the generic cast is the largest cost of a delivery (it looks the
/// conformance up in the runtime's concurrent cache every time; measured with
/// callgrind at about half the instructions of a delivery), while the weak
/// load, which any weak design pays, is the rest.
///
/// How: the bits of the cast result are copied without owning anything. They
/// are turned back into a `P` only right after a successful weak load of the
/// same listener, while that strong reference is held; the load then makes an
/// ordinary, retained copy. The bits are kept only when they provably hold
/// nothing but the listener itself: the first word is the listener's address
/// (an existential or class reference holding it inline; witness tables and
/// type metadata are not reference counted) and the value fits five words.
/// Anything else (a bridged value, a boxed `AnyHashable`, a composition too
/// large) keeps no projection and is cast on every delivery, as before.
///
/// Where: a conformance isolated to the main actor only casts on the main
/// actor, so a projection made on the main queue for a listener with no actor
/// is only used on the main queue; elsewhere the delivery casts again (and,
/// as without projections, finds no conformance).
@usableFromInline
struct CastProjection {
    @usableFromInline typealias Words = (UInt, UInt, UInt, UInt, UInt)

    @usableFromInline
    enum Validity {
        case none
        case anywhere
        case onMainQueueOnly
    }

    @usableFromInline let words: Words
    @usableFromInline let validity: Validity

    static var none: CastProjection { CastProjection(words: (0, 0, 0, 0, 0), validity: .none) }

    private init(words: Words, validity: Validity) {
        self.words = words
        self.validity = validity
    }

    /// Captures `listener`, the result of casting `object` to `P`, if its bits
    /// hold nothing but `object`.
    init<P>(_ listener: P, of object: AnyObject, madeOnMainQueue: Bool) {
        guard MemoryLayout<P>.size <= MemoryLayout<Words>.size,
            MemoryLayout<P>.alignment <= MemoryLayout<Words>.alignment
        else {
            self = .none
            return
        }
        var words: Words = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { destination in
            withUnsafeBytes(of: listener) { source in
                destination.copyMemory(from: source)
            }
        }
        guard words.0 == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) else {
            self = .none
            return
        }
        self.init(words: words, validity: madeOnMainQueue ? .onMainQueueOnly : .anywhere)
    }

    /// This projection for `object`, another instance of the class it was
    /// made from.
    ///
    /// The cast of a class instance yields the instance itself (checked: the
    /// first word) and words that depend on its class only (witness tables,
    /// type metadata), so replacing the first word gives what casting
    /// `object` would give, without the runtime's conformance lookup.
    func reused(for object: AnyObject) -> CastProjection {
        var words = self.words
        words.0 = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        return CastProjection(words: words, validity: validity)
    }

    /// Calls `body` with the captured `P`, borrowed: no copy is made, so the
    /// listener's reference count (slow for a weakly referenced object, which
    /// has a side table) is not touched.
    ///
    /// - Precondition: the caller holds a strong reference to the listener
    ///   this projection was made from, for as long as this call runs.
    @inlinable
    func withListener<P, Result>(as _: P.Type, _ body: (P) -> Result) -> Result {
        var words = self.words
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
