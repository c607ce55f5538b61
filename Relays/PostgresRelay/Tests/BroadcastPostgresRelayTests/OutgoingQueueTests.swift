import Foundation
import Testing

@testable import BroadcastPostgresRelay

/// The outgoing queue, without a server: the numbers it gives each channel's
/// envelopes, and the events a failed send puts back.
@Suite(.timeLimit(.minutes(1))) struct OutgoingQueueTests {
    private static func enqueue(_ queue: OutgoingQueue, _ text: String, on channel: String = "chat")
        -> OutgoingQueue.Enqueued
    {
        queue.enqueue(
            channel: channel, typeName: "T", keepsState: false, limit: 100, notificationLimit: 100,
            payload: { "\(text)#\($0)" }, reference: nil)
    }

    private func payloads(_ next: OutgoingQueue.Next) -> [String] {
        guard case .batch(let batch) = next else { return [] }
        return batch.map(\.payload)
    }

    /// Events taken for a send that failed are put back first, in their
    /// order, before those posted meanwhile; and after the one a failing
    /// single send put back before them.
    @Test func eventsPutBackAfterAFailedSendAreSentFirstInTheirOrder() async {
        let queue = OutgoingQueue(capacity: 100)
        for text in ["a", "b", "c", "d"] { _ = Self.enqueue(queue, text) }
        let taken = await queue.next(limit: 3)
        guard case .batch(let batch) = taken else {
            Issue.record("expected a batch, got \(taken)")
            return
        }
        #expect(batch.map(\.payload) == ["a#1", "b#2", "c#3"])
        _ = Self.enqueue(queue, "e")
        // A batch sent one by one: the first fails, and is put back alone;
        // the rest follow it.
        queue.putBack(batch[0...0])
        queue.putBack(batch[1...], after: 1)
        #expect(payloads(await queue.next(limit: 10)) == ["a#1", "b#2", "c#3", "d#4", "e#5"])
    }

    /// A sender waiting for events is woken by events put back, and takes
    /// them first, in their order, with their numbers and the failure that
    /// interrupted their statement; put back into a queue closed meanwhile
    /// (a graceful shutdown), they are still taken before the queue says it
    /// is finished.
    @Test func eventsPutBackWakeTheWaitingSenderAndAreTakenFirstEvenOnceClosed() async throws {
        struct Interrupted: Error {}
        let queue = OutgoingQueue(capacity: 100)
        for text in ["a", "b", "c"] { _ = Self.enqueue(queue, text) }
        guard case .batch(let batch) = await queue.next(limit: 10) else {
            Issue.record("expected a batch")
            return
        }
        let taken = Collected<[String]>()
        let sender = Task {
            let next = await queue.next(limit: 10)
            taken.append(payloads(next))
            guard case .batch(let again) = next else { return }
            #expect(again.allSatisfy { $0.interruption is Interrupted })
        }
        // Whether or not the sender waits yet, the put back reaches it.
        queue.putBack(
            batch.map { notification in
                var interrupted = notification
                interrupted.interruption = Interrupted()
                return interrupted
            }[...])
        try await taken.wait("the events put back, taken", within: .seconds(10)) { !$0.isEmpty }
        await sender.value
        #expect(taken.all == [["a#1", "b#2", "c#3"]])

        _ = Self.enqueue(queue, "d")
        guard case .batch(let second) = await queue.next(limit: 10) else {
            Issue.record("expected a batch")
            return
        }
        queue.close()
        _ = Self.enqueue(queue, "refused")
        queue.putBack(second[...])
        #expect(payloads(await queue.next(limit: 10)) == ["d#4"])
        guard case .finished = await queue.next(limit: 10) else {
            Issue.record("expected the closed queue finished once empty")
            return
        }
    }

    /// Put back even when full or closed: they were accepted.
    @Test func eventsArePutBackIntoAFullOrClosedQueue() async {
        let queue = OutgoingQueue(capacity: 1)
        _ = Self.enqueue(queue, "a")
        let taken = await queue.next(limit: 1)
        guard case .batch(let batch) = taken else {
            Issue.record("expected a batch, got \(taken)")
            return
        }
        _ = Self.enqueue(queue, "b")
        queue.putBack(batch[...])
        queue.close()
        #expect(queue.closeAndTakeAll().map(\.payload) == ["a#1", "b#2"])
    }

    /// Each channel's envelopes are numbered 1, 2, 3… in the order they are
    /// queued, whichever threads post them; a refused one takes no number.
    @Test func eachChannelsEnvelopesAreNumberedInQueueOrderWithNoneSkipped() async {
        let queue = OutgoingQueue(capacity: 100_000)
        if case .tooLarge(let byteCount) = queue.enqueue(
            channel: "chat", typeName: "T", keepsState: false, limit: 3, notificationLimit: 3,
            payload: { "toolong\($0)" }, reference: { "ref\($0)" })
        {
            #expect(byteCount == 8)
        } else {
            Issue.record("expected the payload refused as too large")
        }
        let threads = 4
        let perThread = 500
        let finished = await onThreadsReleasedTogether(count: threads) { thread in
            for index in 0..<perThread {
                _ = Self.enqueue(queue, "\(thread).\(index)", on: thread % 2 == 0 ? "even" : "odd")
            }
        }
        #expect(finished)
        let all = queue.closeAndTakeAll()
        for channel in ["even", "odd"] {
            let numbers = all.filter { $0.channel == channel }.map(\.number)
            #expect(numbers == Array(1...UInt64(threads / 2 * perThread)), "\(channel)")
        }
        #expect(queue.latestNumbers == ["even": 1000, "odd": 1000])
    }

    /// An envelope over the notification limit is sent as a reference.
    ///
    /// Over the payload limit, or with no reference to send, it is
    /// refused. A batch carries at most ``OutgoingQueue/batchByteLimit``
    /// bytes, or one larger event.
    @Test func anEnvelopeOverTheNotificationLimitTravelsAsAReferenceAndBatchesAreBoundedInBytes() async {
        let queue = OutgoingQueue(capacity: 100)
        let large = String(repeating: "x", count: OutgoingQueue.batchByteLimit)
        func enqueue(_ text: String, limit: Int = 2 << 20, reference: ((UInt64) -> String)? = { "ref\($0)" })
            -> OutgoingQueue.Enqueued
        {
            queue.enqueue(
                channel: "chat", typeName: "T", keepsState: false, limit: limit, notificationLimit: 10,
                payload: { "\(text)\($0)" }, reference: reference)
        }
        guard case .enqueued = enqueue("small"), case .enqueued = enqueue(large), case .enqueued = enqueue("s"),
            case .tooLarge = enqueue(large, limit: 100), case .tooLarge = enqueue("more than ten", reference: nil)
        else {
            Issue.record("expected three events enqueued, then two refused")
            return
        }
        var batches: [[OutgoingNotification]] = []
        for _ in 0..<3 {
            guard case .batch(let batch) = await queue.next(limit: 10) else { break }
            batches.append(batch)
        }
        // The large one alone: with the next, its batch would be over the
        // byte limit.
        #expect(batches.map { $0.map(\.number) } == [[1], [2], [3]])
        #expect(batches.map { $0.map(\.reference) } == [[nil], ["ref2"], [nil]])
        #expect(batches.dropFirst().first?.first?.payload == large + "2")
    }

    /// The rows of envelopes notified are written by a later statement.
    ///
    /// The heartbeat's numbers count only those written. A batch that notifies
    /// an envelope by reference writes the rows of the whole batch, so that
    /// rows are written in their numbers' order.
    @Test func writtenNumbersCountOnlyRowsWrittenInOrder() async {
        let queue = OutgoingQueue(capacity: 100)
        for (text, size) in [("a", 1), ("b", 1), ("c", 1), ("d", 20)] {
            _ = queue.enqueue(
                channel: "chat", typeName: "T", keepsState: false, limit: 100, notificationLimit: 10,
                payload: { String(repeating: text, count: size) + "\($0)" }, reference: { "ref\($0)" })
        }
        guard case .batch(let first) = await queue.next(limit: 2), case .batch(let second) = await queue.next(limit: 10)
        else {
            Issue.record("expected two batches")
            return
        }
        queue.committed(writing: 0, notifying: first)
        #expect(queue.unwrittenRows.map(\.payload) == ["a1", "b2"])
        #expect(queue.writtenNumbers.isEmpty)
        queue.committed(writing: 1, notifying: [])
        #expect(queue.unwrittenRows.map(\.payload) == ["b2"])
        #expect(queue.writtenNumbers == ["chat": 1])
        // "d4" went by reference: its statement wrote "b2" and its batch's rows.
        #expect(second.map(\.reference) == [nil, "ref4"])
        queue.committed(writing: 1, notifying: second)
        #expect(queue.unwrittenRows.isEmpty)
        #expect(queue.writtenNumbers == ["chat": 4])
    }

    /// Rows wait to be written until the oldest has waited the delay, or a
    /// batch's worth waits; with nothing notified, they are written the
    /// delay after the latest notification; a wake with no event waiting
    /// ends the wait for events, as ``OutgoingQueue/Next/woken``.
    @Test func rowsAreDueAfterTheDelayOrOnceEnoughWaitAndAWakeEndsTheWait() async {
        let queue = OutgoingQueue(capacity: 100)
        #expect(!queue.rowsAreDue(after: .zero, count: 3))
        #expect(queue.quietDeadline(after: .seconds(60)) == nil)
        for text in ["a", "b"] { _ = Self.enqueue(queue, text) }
        guard case .batch(let batch) = await queue.next(limit: 10) else {
            Issue.record("expected a batch")
            return
        }
        let before = ContinuousClock.now
        queue.committed(writing: 0, notifying: batch)
        #expect(!queue.rowsAreDue(after: .seconds(60), count: 3))
        #expect(queue.rowsAreDue(after: .zero, count: 3))
        #expect(queue.quietDeadline(after: .seconds(60)).map { $0 >= before + .seconds(60) } == true)
        _ = Self.enqueue(queue, "c")
        guard case .batch(let third) = await queue.next(limit: 10) else {
            Issue.record("expected a batch")
            return
        }
        queue.committed(writing: 0, notifying: third)
        #expect(queue.rowsAreDue(after: .seconds(60), count: 3))
        queue.committed(writing: 3, notifying: [])
        #expect(!queue.rowsAreDue(after: .zero, count: 3))
        #expect(queue.quietDeadline(after: .zero) == nil)

        let waiting = Task { await queue.next(limit: 10) }
        queue.wake()
        guard case .woken = await waiting.value else {
            Issue.record("expected the wait to end woken")
            return
        }
        // Taken: the next wait is for events again.
        _ = Self.enqueue(queue, "d")
        #expect(payloads(await queue.next(limit: 10)) == ["d#4"])
    }
}
