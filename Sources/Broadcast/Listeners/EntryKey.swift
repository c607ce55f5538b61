/// The identity of one registration: the listener object and, for a
/// single-protocol registration, that protocol.
///
/// An object registered with `addListener` and again through a single-protocol
/// registration has two entries; broadcasts still call it once (the
/// ``ProtocolIndex`` keeps the first entry that matches).
struct EntryKey: Hashable {
    let objectID: ObjectIdentifier
    let onlyProtocol: ObjectIdentifier?
}
