import Foundation

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// The error of a wait whose deadline passed: where it was written, what it
/// expected, and what arrived.
///
/// A test that throws it fails with its description, in Swift Testing and in
/// XCTest alike.
struct RecorderTimeout: Error, CustomStringConvertible, LocalizedError {
    let description: String
    let expected: Int
    let arrived: Int

    init<Value>(expected: Int, arrived: [Value], timeout: Duration, at place: WaitPlace) {
        self.expected = expected
        self.arrived = arrived.count
        let wanted = expected == 1 ? "1 value" : "\(expected) values"
        let got = arrived.isEmpty ? "none arrived" : "\(arrived.count) arrived: \(arrived)"
        description = "\(place.fileID):\(place.line): expected \(wanted) within \(timeout); \(got)"
    }

    /// The description, for runners that show `localizedDescription`.
    var errorDescription: String? { description }

    /// Fails the running test at the wait's place, and ends the wait.
    ///
    /// In a Swift Testing test: one issue, at the wait's line (a thrown error
    /// is recorded at the test function's line), and the error `#require`
    /// throws, which the runner does not record again. Elsewhere: a failure
    /// at the wait's file and line in an XCTest test, then this error, which
    /// also reaches code that waits outside any test.
    func fail(at place: WaitPlace) throws -> Never {
        #if canImport(Testing)
            if Test.current != nil, let location = place.sourceLocation {
                try #require(arrived >= expected, Comment(rawValue: description), sourceLocation: location)
            }
        #endif
        #if canImport(XCTest)
            XCTFail(description, file: place.filePath, line: place.line)
        #endif
        throw self
    }
}

/// Where a wait is written, as the caller's default arguments give it.
struct WaitPlace: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    #if canImport(Testing)
        /// Swift Testing's location of the wait; nil for a place it cannot
        /// hold (a file ID with no module, a line or column of 0).
        var sourceLocation: SourceLocation? {
            let fileID = "\(fileID)"
            guard fileID.contains("/"), line > 0, column > 0 else { return nil }
            return SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        }
    #endif
}
