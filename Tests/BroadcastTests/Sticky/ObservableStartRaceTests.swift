import Broadcast
import Testing

/// `ObservableStickyEvent` from its first read on: a change made while it
/// is created is never lost, so it never stays on `nil` or an older state
/// while a newer one is kept.
@Suite("Sticky state as an Observable value, created during a change", .serialized, .timeLimit(.minutes(1)))
struct ObservableStartRaceTests {
    struct Session: Sendable, Equatable { let user: String }

    static let budget = Duration.seconds(2)
    /// A row races on the main thread, which the main actor's other work
    /// waits for: short rows (a reading made before the registration is
    /// caught in the first row) keep the suites running beside it from
    /// stalling past their deadlines, under AddressSanitizer too.
    static let rowLength = 200

    /// Created on the main actor while another thread changes the state of
    /// the same broadcaster, once; after the scheduled updates, each value
    /// is the state its broadcaster keeps.
    @MainActor
    func race(
        prepare: @escaping (Broadcaster) -> Void, change: @escaping @Sendable (Broadcaster) -> Void
    ) async -> String? {
        var failure: String?
        let deadline = ContinuousClock.now + Self.budget
        repeat {
            let broadcasters = (0..<Self.rowLength).map { _ in Broadcaster() }
            broadcasters.forEach(prepare)
            var observed: [ObservableStickyEvent<Session>?] = Array(repeating: nil, count: broadcasters.count)
            PacedRace.run(count: broadcasters.count, sweep: 4_096) { index in
                change(broadcasters[index])
            } _: { index in
                observed[index] = ObservableStickyEvent(for: Session.self, on: broadcasters[index])
            }
            for broadcaster in broadcasters { await broadcaster.waitForScheduledDeliveries() }
            let row = Array(zip(broadcasters, observed))
            if let index = row.indices.first(where: { row[$0].1?.value != row[$0].0.stickyEvent(for: Session.self) }) {
                failure =
                    "subject \(index) shows \(String(describing: row[index].1?.value)) while "
                    + "\(String(describing: row[index].0.stickyEvent(for: Session.self))) is kept"
            }
        } while failure == nil && ContinuousClock.now < deadline
        return failure
    }

    @MainActor @Test func aPostRacingTheCreationIsShown() async {
        let failure = await race(prepare: { _ in }, change: { $0.post(Session(user: "ada"), sticky: true) })
        #expect(failure == nil)
    }

    @MainActor @Test func aClearRacingTheCreationIsShown() async {
        let failure = await race(
            prepare: { $0.post(Session(user: "ada"), sticky: true) }, change: { $0.clearStickyEvent(for: Session.self) }
        )
        #expect(failure == nil)
    }
}
