@testable import Broadcast

extension Broadcaster {
    /// Registers `listener` as `addListener` does for a client compiled in
    /// the Swift 5 language mode: with the caller's isolation, whether or
    /// not the listener is `Sendable`.
    ///
    /// The Swift 6 forms cannot be called with an `AnyObject` from code
    /// isolated to no actor; the tests that register mixed populations of
    /// listeners that way (models, stress and property tests) reach the
    /// registration a Swift 5 client reaches.
    @discardableResult
    func addListenerAsInSwift5(
        _ listener: consuming AnyObject,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        add(
            consume listener, isSendable: false, receivingSticky: receivingSticky, isolation: isolation,
            fileID: fileID, line: line)
    }
}
