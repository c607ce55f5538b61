/// The readable name of a protocol known only by its `ObjectIdentifier`, as
/// entries record the protocol of a single-protocol registration.
enum ProtocolName {
    /// `String(describing:)` of the type `protocolID` identifies.
    ///
    /// `ObjectIdentifier(_: Any.Type)` wraps the type's metadata pointer, and
    /// an `Any.Type` is that same pointer, so the conversion is exact (and
    /// `unsafeBitCast` traps if the sizes ever differ). Only used to name
    /// protocols in diagnostics, never to call anything.
    static func of(_ protocolID: ObjectIdentifier) -> String {
        String(describing: unsafeBitCast(protocolID, to: Any.Type.self))
    }
}
