import Broadcast
import Testing

/// The debug-build report of an isolated conformance registered off its actor.
///
/// A listener whose conformance is isolated to the main actor but that
/// registered from code not isolated to the main actor is what the Swift
/// runtimes of Apple OS releases before the 26 generation, which do not check
/// isolated conformances, would call off the main actor. Also
/// `listeners(of:)`, which hands a listener registered on an actor only to
/// code on that actor, whatever the runtime.
@Suite("Isolated conformance registered off the main actor")
struct IsolatedConformanceCheckTests {
    #if DEBUG
        @Test(.timeLimit(.minutes(1)))
        func aListenerWithNoActorWhoseConformanceIsIsolatedIsReported() async {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let conformer = MainConformer(id: 1, record: CallRecord())
            let line = #line + 1
            broadcaster.addListener(conformer)  // non-isolated code: no actor
            // This runtime checks the isolation: a background broadcast cannot
            // tell an isolated conformance from none, so it sends the call to
            // the main actor, uncounted, whose cast makes it and is reported
            // before the wait returns.
            let made = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
            await broadcaster.waitForScheduledDeliveries()

            #expect(made == 0)
            #expect(
                diagnostics.all == [
                    BroadcastDiagnostic(
                        kind: .isolatedConformanceRegisteredOffMainActor, typeName: "MainConformer",
                        protocolName: "Ping", fileID: "BroadcastTests/IsolatedConformanceCheckTests.swift", line: line)
                ])
            #expect(
                diagnostics.all.first?.description
                    == "Broadcast: MainConformer registered at BroadcastTests/IsolatedConformanceCheckTests.swift:"
                    + "\(line) conforms to Ping only on the main actor (an isolated conformance) but was registered "
                    + "from code that is not isolated to any actor, so it has no actor. This runtime checks "
                    + "the isolation, and a broadcast made elsewhere sends its call to the main actor, whose cast "
                    + "makes it; the runtimes of Apple OS releases before the 26 generation (iOS 18, macOS 15) do "
                    + "not, and a broadcast from another thread would call it there: a data race. Register it from "
                    + "main-actor code, for example in its @MainActor initializer.")
            withExtendedLifetime(conformer) {}
        }

        @Test(.timeLimit(.minutes(1)))
        func aMainActorClassRegisteredFromNonIsolatedCodeIsReportedAfterAMainActorBroadcast() async {
            // Taken in by an index on the main actor, where the cast succeeds:
            // the main-actor broadcast calls it, and the check still finds the
            // conformance isolated.
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let record = CallRecord()
            let pinger = await IsolatedPinger(id: 2, record: record)
            broadcaster.addListener(pinger)  // non-isolated code, though the class is @MainActor
            let made = await MainActor.run { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
            await broadcaster.waitForScheduledDeliveries()

            #expect(made == 1)
            #expect(diagnostics.all.map(\.kind) == [.isolatedConformanceRegisteredOffMainActor])
            #expect(diagnostics.all.map(\.typeName) == ["IsolatedPinger"])
            withExtendedLifetime(pinger) {}
        }

        @Test(.timeLimit(.minutes(1)))
        func aListenerRegisteredOnAnotherActorIsReported() async {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let conformer = MainConformer(id: 3, record: CallRecord())
            let registrar = Registrar()
            let line = await registrar.run { _ in
                broadcaster.addListener(conformer)  // the registrar's code: its actor
                return #line - 1
            }
            _ = await onNewThread { broadcaster.listenerCount(of: Ping.self) }  // a query takes it in too
            _ = await MainActor.run { broadcaster.listenerCount(of: Ping.self) }
            await broadcaster.waitForScheduledDeliveries()

            #expect(diagnostics.all.map(\.kind) == [.isolatedConformanceRegisteredOffMainActor])
            #expect(diagnostics.all.map(\.line) == [line])
            // It has the registrar's actor, and the report says so.
            #expect(
                diagnostics.all.first?.description
                    == "Broadcast: MainConformer registered at BroadcastTests/IsolatedConformanceCheckTests.swift:"
                    + "\(line) conforms to Ping only on the main actor (an isolated conformance) but was registered "
                    + "from code isolated to Registrar, so a broadcast made off the main actor sends its call to "
                    + "that actor, where this runtime finds no conformance and skips it; the runtimes of Apple OS "
                    + "releases before the 26 generation (iOS 18, macOS 15) do not check the isolation, and would "
                    + "call it there: a data race. Register it from main-actor code, for example in its @MainActor "
                    + "initializer, or with calledOn: MainActor.shared.")
            // As the report says: a broadcast made off the main actor does not call it.
            let record = CallRecord()
            let pinged = MainConformer(id: 6, record: record)
            _ = await registrar.run { _ in broadcaster.addListener(pinged) }
            _ = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
            await broadcaster.waitForScheduledDeliveries()
            #expect(record.calls(of: 6).isEmpty)
            withExtendedLifetime((conformer, pinged)) {}
        }

        /// Found by a broadcast on the main actor, the report of a listener
        /// of another actor names that actor.
        @Test(.timeLimit(.minutes(1)))
        func theReportOfAListenerOfAnotherActorFoundByAMainActorBroadcastNamesItsActor() async {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let conformer = MainConformer(id: 7, record: CallRecord())
            let registrar = Registrar()
            _ = await registrar.run { _ in broadcaster.addListener(conformer) }
            _ = await MainActor.run { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
            await broadcaster.waitForScheduledDeliveries()
            #expect(diagnostics.all.map(\.kind) == [.isolatedConformanceRegisteredOffMainActor])
            let description = diagnostics.all.first?.description ?? ""
            #expect(description.contains("was registered from code isolated to Registrar, so a broadcast"))
            #expect(!description.contains("so it has no actor"))
            withExtendedLifetime(conformer) {}
        }

        @Test(.timeLimit(.minutes(1)))
        func aClassAndProtocolAreReportedOnce() async {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let first = MainConformer(id: 4, record: CallRecord())
            broadcaster.addListener(first)
            _ = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
            let second = MainConformer(id: 5, record: CallRecord())
            broadcaster.addListener(second)
            _ = await MainActor.run { broadcaster.broadcast(to: Ping.self) { $0.ping(2) } }
            _ = await onNewThread { broadcaster.listenerCount(of: Ping.self) }
            await broadcaster.waitForScheduledDeliveries()

            #expect(diagnostics.all.map(\.typeName) == ["MainConformer"])
            withExtendedLifetime((first, second)) {}
        }

        @Test(.timeLimit(.minutes(1)))
        func aListenerReleasedWhileItsAnswerIsOpenIsNeitherKeptNorReported() async {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            var conformer: MainConformer? = MainConformer(id: 13, record: CallRecord())
            weak let released = conformer
            broadcaster.addListener(conformer!)
            _ = await onNewThread { broadcaster.listenerCount(of: Ping.self) }  // leaves the answer open
            conformer = nil
            #expect(released == nil)
            _ = await MainActor.run { broadcaster.listenerCount(of: Ping.self) }
            await broadcaster.waitForScheduledDeliveries()
            #expect(diagnostics.all.isEmpty)
        }

        /// Whether the protocol's index first takes the listeners in on the
        /// main actor (each cast is answered there) or on a plain thread
        /// (a failed cast stays open until a main-actor query).
        @Test(.timeLimit(.minutes(1)), arguments: [true, false])
        func registrationsThatAreSafeOnEveryRuntimeAreNotReported(takenInOnTheMainActorFirst: Bool) async {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let record = CallRecord()
            // An isolated conformance registered from main-actor code.
            let isolated = await MainActor.run {
                let pinger = IsolatedPinger(id: 6, record: record)
                broadcaster.addListener(pinger)
                return pinger
            }
            // The same conformance on a class with no actor, registered there.
            let conformer = MainConformer(id: 7, record: record)
            _ = await MainActor.run { broadcaster.addListener(conformer) }
            // A main-actor class with a non-isolated conformance, registered
            // from non-isolated code.
            let mainPinger = await MainPinger(id: 8, record: record)
            broadcaster.addListener(mainPinger)
            // A plain listener, and one that does not conform, from
            // non-isolated code.
            let plain = PlainPinger(id: 9, record: record)
            broadcaster.addListener(plain)
            let stranger = Stranger()
            broadcaster.addListener(stranger)

            var made: [Int] = []
            if takenInOnTheMainActorFirst {
                made.append(await MainActor.run { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } })
                made.append(await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(2) } })
            } else {
                made.append(await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } })
                made.append(await MainActor.run { broadcaster.listenerCount(of: Ping.self) })
            }
            await broadcaster.waitForScheduledDeliveries()

            #expect(made == [4, 4])
            #expect(diagnostics.all.isEmpty)
            withExtendedLifetime((isolated, conformer, mainPinger, plain, stranger)) {}
        }
    #endif

    @Test(.timeLimit(.minutes(1)))
    func listenersOfHandsOutAListenerWhereABroadcastWouldCallIt() async {
        // Every listener here is Sendable. `MainPinger`'s conformance is not
        // isolated, so a broadcast calls it wherever it runs, although it
        // registered from main-actor code, and `listeners(of:)` hands it out
        // there too; `IsolatedPinger`'s is isolated to the main actor, so it
        // is handed out only there. The Sendable listener registered on the
        // registrar is handed out everywhere.
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let (mainPinger, isolated) = await MainActor.run {
            let pinger = MainPinger(id: 10, record: record)
            broadcaster.addListener(pinger)
            let isolated = IsolatedPinger(id: 13, record: record)
            broadcaster.addListener(isolated)
            return (pinger, isolated)
        }
        let plain = PlainPinger(id: 11, record: record)
        broadcaster.addListener(plain)
        let registrar = Registrar()
        let onRegistrar = PlainPinger(id: 12, record: record)
        await registrar.add(onRegistrar, to: broadcaster)

        let offMain = await onNewThread { broadcaster.listeners(of: Ping.self).map { ObjectIdentifier($0) } }
        let onMain = await MainActor.run { broadcaster.listeners(of: Ping.self).map { ObjectIdentifier($0) } }
        let onTheRegistrar = await registrar.run { _ in
            broadcaster.listeners(of: Ping.self).map { ObjectIdentifier($0) }
        }

        let everywhere = [ObjectIdentifier(mainPinger), ObjectIdentifier(plain), ObjectIdentifier(onRegistrar)]
        #expect(offMain == everywhere)
        #expect(onMain == [everywhere[0], ObjectIdentifier(isolated), everywhere[1], everywhere[2]])
        #expect(onTheRegistrar == everywhere)
        withExtendedLifetime((mainPinger, isolated, plain, onRegistrar)) {}
    }
}
