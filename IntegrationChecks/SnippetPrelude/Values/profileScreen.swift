// A main-actor screen that shows the signed-in user.
nonisolated let profileScreen = ProfileScreen()

@MainActor
final class ProfileScreen {
    nonisolated init() {}
}

extension ProfileScreen: @MainActor LoginListener {
    func userLoggedIn(_ user: User) {}
    func userLoggedOut() {}
}
