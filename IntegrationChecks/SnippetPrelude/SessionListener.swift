// A listener whose method is asynchronous: every service clears its store on
// sign-out.
nonisolated protocol SessionListener: AnyObject {
    func userSignedOut() async
}
