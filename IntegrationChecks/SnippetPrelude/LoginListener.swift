// A listener protocol for the signed-in state, as the registration snippets declare it.
nonisolated protocol LoginListener: AnyObject {
    func userLoggedIn(_ user: User)
    func userLoggedOut()
}
