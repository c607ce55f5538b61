import Foundation

/// The error of a wait whose deadline passed: where it was written, what it
/// expected, and what arrived.
///
/// A test that throws it fails with its description, in Swift Testing and in
/// XCTest alike.
struct RecorderTimeout: Error, CustomStringConvertible, LocalizedError {
    let description: String

    init<Value>(expected: Int, arrived: [Value], timeout: Duration, fileID: StaticString, line: UInt) {
        let wanted = expected == 1 ? "1 value" : "\(expected) values"
        let got = arrived.isEmpty ? "none arrived" : "\(arrived.count) arrived: \(arrived)"
        description = "\(fileID):\(line): expected \(wanted) within \(timeout); \(got)"
    }

    /// The description, for runners that show `localizedDescription`.
    var errorDescription: String? { description }
}
