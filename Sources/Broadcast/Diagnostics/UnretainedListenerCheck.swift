#if DEBUG
    /// Debug builds only: notices a listener that `addListener` held the last
    /// reference to.
    ///
    /// Why this test and no other: a weak table is never told when a listener
    /// dies, so "died soon after registering, never called" can only be
    /// guessed later, and every guess also flags listeners released on
    /// purpose (tests do it all the time). One moment is certain: the
    /// `consuming` debug `addListener` lets go of the caller's reference
    /// before returning; if the object is gone then, nothing else held it and
    /// nothing ever will. Nothing is stored in the broadcaster or its entries.
    struct UnretainedListenerCheck {
        private weak var listener: AnyObject?
        private let listenerType: AnyObject.Type
        private let fileID: StaticString
        private let line: UInt

        init(_ listener: AnyObject, fileID: StaticString, line: UInt) {
            self.listener = listener
            self.listenerType = type(of: listener)
            self.fileID = fileID
            self.line = line
        }

        /// Reports the listener to `broadcaster`'s handler (or standard
        /// error) if it has been deallocated.
        func reportIfReleased(to broadcaster: Broadcaster) {
            guard listener == nil else { return }
            broadcaster.report(
                BroadcastDiagnostic(
                    kind: .listenerReleasedOnRegistration, typeName: String(describing: listenerType),
                    fileID: "\(fileID)", line: Int(line)))
        }
    }
#endif
