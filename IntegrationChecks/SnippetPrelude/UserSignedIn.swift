// The event value of Getting Started.
struct UserSignedIn: Sendable { let name: String }
