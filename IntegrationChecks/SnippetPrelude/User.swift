// What the documentation's snippets assume exists: a user.
struct User: Sendable { let name: String }
