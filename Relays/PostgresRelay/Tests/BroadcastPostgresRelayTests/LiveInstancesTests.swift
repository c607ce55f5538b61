import Broadcast
import BroadcastPostgresRelay
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct LiveInstancesTests {
    /// Each relay lists the instances whose heartbeats it hears: both, while
    /// both run; the one left, soon after the other stopped.
    @Test func eachRelayListsTheInstancesWhoseHeartbeatsItHears() async throws {
        try await withServer { server in
            let interval = Duration.milliseconds(600)
            let first = try RelayInstance("first", server: server) { $0.healthCheckInterval = interval }
            let second = try RelayInstance("second", server: server) { $0.healthCheckInterval = interval }
            try await first.waitUntilListening()
            try await second.waitUntilListening()
            let both = [first.relay.instanceID, second.relay.instanceID].sorted()
            for instance in [first, second] {
                try await eventually("\(instance.name) hearing both", within: .seconds(5)) {
                    instance.relay.liveInstanceIDs == both
                }
            }
            try await second.stop()
            try await eventually("the stopped instance no longer listed", within: .seconds(5)) {
                first.relay.liveInstanceIDs == [first.relay.instanceID]
            }
            try await first.stop()
        }
    }
}
