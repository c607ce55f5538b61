#if DEBUG
    import Foundation
#endif

extension Broadcaster {
    /// Hands `diagnostic` to the handler given at
    /// ``init(onDiagnostic:)``, or writes it to standard error; does nothing
    /// in release builds.
    ///
    /// `package` so that the bridge module reports its own mistakes (a
    /// notification its forwarder rejected) the way the core reports its
    /// own, without widening the public surface. Call it with no lock held:
    /// the handler is user code.
    package func report(_ diagnostic: @autoclosure () -> BroadcastDiagnostic) {
        #if DEBUG
            let diagnostic = diagnostic()
            if let diagnosticHandler {
                diagnosticHandler(diagnostic)
            } else {
                FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
            }
        #endif
    }
}
