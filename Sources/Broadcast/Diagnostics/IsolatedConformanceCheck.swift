#if DEBUG
    import Dispatch
    import Foundation

    /// Debug builds only: notices a listener whose conformance is isolated to
    /// the main actor but that registered from code not isolated to the main
    /// actor (no actor, or another one).
    ///
    /// Why: such a listener is not moved to the main actor by Broadcast. On a
    /// Swift runtime that checks isolated conformances (Swift 6.2 and later:
    /// Linux, Apple OS releases of the 26 generation) the generic cast fails
    /// off the main actor, so the listener is skipped there, harmlessly. The
    /// runtimes of earlier Apple OS releases do not check: the cast succeeds
    /// on any thread and a background broadcast calls main-actor code on its
    /// own thread. The mistake is invisible where it is made, so it is found
    /// here, with this runtime's check, and reported with the fix.
    ///
    /// How: when a protocol's index first takes in a registration that has no
    /// main-actor isolation, the check enqueues one job per listener class
    /// and protocol on the main actor's mailbox (so
    /// ``Broadcaster/waitForScheduledDeliveries()`` waits for it). The job
    /// makes the delivery path's cast in a main-actor task, where an isolated
    /// conformance succeeds, and again on a new thread outside any task, where
    /// it fails; success there and failure here is exactly a conformance
    /// isolated to the main actor. The job blocks the main actor for one
    /// thread's cast, once per broadcaster, class and protocol. Nothing of
    /// this exists in release builds.
    struct IsolatedConformanceCheck {
        private struct Key: Hashable {
            let type: ObjectIdentifier
            let protocolType: ObjectIdentifier
        }

        private let mainMailbox: ActorMailbox
        private let report: @Sendable (BroadcastDiagnostic) -> Void
        /// The classes and protocols already probed (or being probed).
        private var probed: Set<Key> = []

        init(mainMailbox: ActorMailbox, report: @escaping @Sendable (BroadcastDiagnostic) -> Void) {
            self.mainMailbox = mainMailbox
            self.report = report
        }

        /// Probes the listeners of `entries`, just taken in by `P`'s index,
        /// that registered without the main actor, once per class.
        ///
        /// Runs under the broadcaster's lock: it only enqueues work.
        mutating func noteTakenIn<P>(_ entries: ArraySlice<ListenerEntry?>, as _: P.Type) {
            let protocolID = ObjectIdentifier(P.self)
            for case let entry? in entries where entry.isolationBox !== IsolationBox.mainActor {
                guard entry.listens(to: protocolID), let object = entry.liveObject else { continue }
                guard probed.insert(Key(type: ObjectIdentifier(type(of: object)), protocolType: protocolID)).inserted
                else { continue }
                enqueueProbe(of: object, registeredAt: entry.registrationSite, as: P.self)
            }
        }

        private func enqueueProbe<P>(
            of object: AnyObject, registeredAt site: (fileID: StaticString, line: UInt)?, as _: P.Type
        ) {
            let listener = WeakListener(object)
            let report = self.report
            mainMailbox.enqueue { _ in
                // Held until the end, so the thread's weak load finds it.
                guard let object = listener.object else { return }
                let isolatedToMainActor = withExtendedLifetime(object) {
                    Self.conforms(object, as: P.self) && !Self.conformsOnANewThread(listener, as: P.self)
                }
                guard isolatedToMainActor else { return }
                report(
                    BroadcastDiagnostic(
                        kind: .isolatedConformanceRegisteredOffMainActor(protocolName: String(describing: P.self)),
                        listenerType: String(describing: type(of: object)),
                        fileID: site.map { "\($0.fileID)" } ?? "", line: site.map { Int($0.line) } ?? 0))
            }
        }

        /// The cast a delivery makes, here.
        private static func conforms<P>(_ object: AnyObject, as _: P.Type) -> Bool {
            IndexMember.castAndCall(object, as: P.self) { _ in }
        }

        /// The same cast on a new thread, outside any task and any actor,
        /// waited for.
        private static func conformsOnANewThread<P>(_ listener: WeakListener, as _: P.Type) -> Bool {
            let answer = ThreadAnswer()
            Thread.detachNewThread {
                answer.set(listener.object.map { conforms($0, as: P.self) } ?? false)
            }
            return answer.wait()
        }
    }

    /// One answer handed from a thread to the code waiting for it.
    private final class ThreadAnswer: @unchecked Sendable {
        // @unchecked Sendable: `value` is written once, by the thread, before
        // it signals `done`, and read only after `wait()` has seen that
        // signal; the semaphore orders the two.
        private var value = false
        private let done = DispatchSemaphore(value: 0)

        func set(_ answer: Bool) {
            value = answer
            done.signal()
        }

        func wait() -> Bool {
            done.wait()
            return value
        }
    }

    extension Broadcaster {
        /// Gives the storage its isolated-conformance check, reporting to this
        /// broadcaster's handler (or standard error).
        func installIsolatedConformanceCheck() {
            let handler = diagnosticHandler
            let check = IsolatedConformanceCheck(mainMailbox: mailboxes.mailbox(for: MainActor.shared)) {
                diagnostic in
                if let handler {
                    handler(diagnostic)
                } else {
                    FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
                }
            }
            storage.withLock { $0.isolatedConformanceCheck = check }
        }
    }
#endif
