// A signed-in user.
nonisolated let ada = User(name: "Ada")
