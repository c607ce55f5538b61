// What the documentation's snippets assume exists: a post.
struct Post: Sendable { let title: String }
