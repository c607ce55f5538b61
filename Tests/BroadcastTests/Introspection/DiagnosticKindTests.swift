import Broadcast
import Testing

@Suite("Diagnostic kinds")
struct DiagnosticKindTests {
    @Test func eachKindIsDistinctAndNamedAsItsStaticMember() {
        let kinds: [BroadcastDiagnostic.Kind] = [
            .listenerReleasedOnRegistration, .isolatedConformanceRegisteredOffMainActor, .unsettledCallLimitReached,
        ]
        #expect(
            kinds.map(\.description) == [
                "listenerReleasedOnRegistration", "isolatedConformanceRegisteredOffMainActor",
                "unsettledCallLimitReached",
            ])
        #expect(Set(kinds).count == kinds.count)
    }

    @Test func aSwitchMatchesTheStaticMembers() {
        func isAboutRegistration(_ kind: BroadcastDiagnostic.Kind) -> Bool {
            switch kind {
            case .listenerReleasedOnRegistration, .isolatedConformanceRegisteredOffMainActor: true
            default: false
            }
        }
        #expect(isAboutRegistration(.listenerReleasedOnRegistration))
        #expect(isAboutRegistration(.isolatedConformanceRegisteredOffMainActor))
    }
}
