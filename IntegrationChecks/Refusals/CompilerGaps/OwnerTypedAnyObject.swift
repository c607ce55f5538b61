// Swift6: compiles
//
// A gap in Swift 6.3's checking, pinned so that CI notices when it closes: an
// argument typed `AnyObject`, opened for a generic parameter that must be
// Sendable, is not checked for Sendable. The listener forms take
// `any AnyObject & Sendable` instead of a generic parameter, which closes the
// gap for them (AddListenerExistential.swift and the registration files refuse
// it); the `owner:` forms keep the owner's type for the handler, so there an
// owner typed `AnyObject` passes the type checker. An owner of a concrete
// class is checked. (Past the type checker, Swift 6.3.1 stops at SIL
// generation on this call, "Invalid conformance in type-checked AST", so a
// client writing it gets a compiler crash rather than a program.)
import Broadcast

struct UserSignedIn: Sendable { let name: String }

nonisolated func register(_ owner: AnyObject, with broadcaster: Broadcaster) -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self, owner: owner) { _, _ in }
}
