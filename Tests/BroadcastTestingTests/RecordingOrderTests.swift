import BroadcastTesting
import Dispatch
import Testing

/// One producer's value: which producer, and its position in that producer's sequence.
struct Tagged: Sendable, Equatable {
    let producer: Int
    let index: Int
}

/// Whether each producer's values appear in the order it recorded them, all of them, once.
func eachProducerInOrder(_ values: [Tagged], producers: Int) -> Bool {
    (0..<producers).allSatisfy { producer in
        values.filter { $0.producer == producer }.map(\.index) == Array(0..<valuesPerProducer)
    }
}

@Suite("Recording order", .timeLimit(.minutes(1)))
struct RecordingOrderTests {
    @Test func valuesAreKeptInTheOrderOfTheCalls() {
        let recorder = BroadcastRecorder<Int>()
        #expect(recorder.values.isEmpty)

        recorder.record(3)
        recorder.record(1)
        recorder.record(2)

        #expect(recorder.values == [3, 1, 2])
    }

    @Test func fourTasksRecordingAtOnceKeepEachTasksOrder() async throws {
        let recorder = BroadcastRecorder<Tagged>()

        for producer in 0..<4 {
            Task.detached {
                for index in 0..<valuesPerProducer { recorder.record(Tagged(producer: producer, index: index)) }
            }
        }
        try await recorder.waitForValues(count: 4 * valuesPerProducer)

        #expect(recorder.values.count == 4 * valuesPerProducer)
        #expect(eachProducerInOrder(recorder.values, producers: 4))
    }

    @Test func fourThreadsRecordingAtOnceKeepEachThreadsOrder() {
        let recorder = BroadcastRecorder<Tagged>()

        DispatchQueue.concurrentPerform(iterations: 4) { producer in
            for index in 0..<valuesPerProducer { recorder.record(Tagged(producer: producer, index: index)) }
        }

        #expect(recorder.values.count == 4 * valuesPerProducer)
        #expect(eachProducerInOrder(recorder.values, producers: 4))
    }

    @Test func readingWhileOthersRecordSeesAGrowingPrefix() {
        let recorder = BroadcastRecorder<Tagged>()
        let snapshots = BroadcastRecorder<[Tagged]>()

        DispatchQueue.concurrentPerform(iterations: 3) { producer in
            if producer == 0 {
                for _ in 0..<100 { snapshots.record(recorder.values) }
            } else {
                for index in 0..<valuesPerProducer { recorder.record(Tagged(producer: producer, index: index)) }
            }
        }

        let final = recorder.values
        #expect(snapshots.values.allSatisfy { final.starts(with: $0) })
    }
}
