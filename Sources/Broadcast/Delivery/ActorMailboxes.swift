import Synchronization

/// One ``ActorMailbox`` per actor a broadcaster has scheduled deliveries on.
///
/// The main actor's mailbox exists from the start (it is the common case and
/// needs no lookup); others are created on first use and kept, which is
/// bounded by the number of actors listeners registered from.
final class ActorMailboxes: Sendable {
    private let main = ActorMailbox(actor: MainActor.shared)
    private let others = Mutex<[ObjectIdentifier: ActorMailbox]>([:])

    func mailbox(for actor: any Actor) -> ActorMailbox {
        if actor === MainActor.shared { return main }
        return others.withLock { others in
            if let mailbox = others[ObjectIdentifier(actor)] { return mailbox }
            let mailbox = ActorMailbox(actor: actor)
            others[ObjectIdentifier(actor)] = mailbox
            return mailbox
        }
    }

    func all() -> [ActorMailbox] {
        [main] + others.withLock { Array($0.values) }
    }
}
