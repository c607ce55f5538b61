/// Casts `object` to `P` from generic code that is not specialized for `P`:
/// the cast a library makes when it looks up a listener's conformance at
/// delivery time.
///
/// A cast written with a concrete protocol (`object as? SomeListener`)
/// compiles to a direct `swift_conformsToProtocol` call, which does not check
/// whether a conformance is isolated to an actor. This one, in a module of its
/// own built with library evolution (see Package.swift), so that no caller
/// can specialize it, goes through `swift_dynamicCast`, which checks isolated
/// conformances. Its cost is the least a library that honours isolated
/// conformances pays per listener.
///
/// - Parameters:
///   - object: The listener, held as `AnyObject`.
///   - type: The protocol (or class) to cast to.
/// - Returns: `object` as `P`, or `nil` if it does not conform here.
@inline(never)
public func castUnspecialized<P>(_ object: AnyObject, to type: P.Type) -> P? {
    object as? P
}
