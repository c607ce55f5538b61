import Broadcast
import BroadcastTesting
import XCTest

/// The recorder from XCTest: the same calls; a wait whose deadline passes
/// throws, and `try await` turns that into the test's failure.
final class XCTestUsageTests: XCTestCase {
    func testAWaitedForAwaitLoopSeesEveryValue() async throws {
        let broadcaster = Broadcaster()
        let signIns = BroadcastRecorder<String>()
        let events = broadcaster.events(of: UserSignedIn.self)
        let reader = Task {
            for await event in events { signIns.record(event.name) }
        }

        broadcaster.post(UserSignedIn(name: "Ada"))
        broadcaster.post(UserSignedIn(name: "Grace"))
        try await signIns.waitForValues(count: 2)

        XCTAssertEqual(signIns.values, ["Ada", "Grace"])
        reader.cancel()
    }

    /// The failures recorded at a wait's deadline, as `path:line`; others
    /// fail the test as usual.
    private let waitFailures = BroadcastRecorder<String>()

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard description.contains("expected 2 values within") else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        waitFailures.record("\(filePath):\(lineNumber)")
    }

    func testAMissedDeadlineFailsAtTheWaitsLineAndThrowsWhatAFailedTestPrints() async {
        let recorder = BroadcastRecorder<Int>()
        recorder.record(1)

        let line = #line + 2  // the line of the wait below
        do {
            try await recorder.waitForValues(count: 2, timeout: .milliseconds(50), fileID: "AppTests/Sync.swift")
            XCTFail("the wait returned without its second value")
        } catch {
            XCTAssertEqual(
                "\(error)", "AppTests/Sync.swift:\(line): expected 2 values within 0.05 seconds; 1 arrived: [1]")
            XCTAssertEqual(error.localizedDescription, "\(error)")
        }
        XCTAssertEqual(waitFailures.values, ["\(#filePath):\(line)"])
    }
}
