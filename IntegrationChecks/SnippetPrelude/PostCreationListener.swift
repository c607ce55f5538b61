// The listener protocol of the README's quick start.
nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}
