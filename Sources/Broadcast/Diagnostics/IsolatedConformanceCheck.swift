#if DEBUG
    import Foundation

    /// Debug builds only: notices a listener whose conformance is isolated to
    /// the main actor but that registered from code not isolated to the main
    /// actor (no actor, or another one).
    ///
    /// Why: Broadcast does not move such a listener's calls to the main
    /// actor. A Swift runtime that checks isolated conformances (Swift 6.2 and
    /// later: Linux, Apple OS releases of the 26 generation) fails the cast
    /// off the main actor, so the listener is skipped there, harmlessly; the
    /// runtimes of earlier Apple OS releases do not check, the cast succeeds
    /// on any thread, and a background broadcast calls main-actor code on its
    /// own thread. Nothing shows where the mistake is made, so it is found
    /// here, with this runtime's check, and reported with the fix.
    ///
    /// How: the delivery path's cast, made where the code holds the listener
    /// anyway (while a protocol's index takes it in), in two places: where
    /// the main actor's isolated conformances can be checked, where it
    /// succeeds, and on a new thread outside any task, where it fails.
    /// Succeeding there and failing here is exactly a conformance isolated to
    /// the main actor. A take-in elsewhere whose cast fails leaves the answer
    /// open, with the listener held weakly, until the protocol's index is
    /// next used on the main actor. One answer per broadcaster, listener
    /// class and protocol. The check never holds a listener longer than the
    /// take-in that loaded it (the new thread casts while the take-in holds
    /// it), so it never changes when a listener is deallocated; reports go
    /// through the main actor's mailbox, with no lock held.
    struct IsolatedConformanceCheck {
        typealias Site = (fileID: StaticString, line: UInt)

        private struct Key: Hashable {
            let type: ObjectIdentifier
            let protocolType: ObjectIdentifier
        }

        /// A listener whose cast failed where the main actor's isolated
        /// conformances cannot be checked: not isolated to the main actor,
        /// or not conforming at all; the main actor tells which.
        private struct Open {
            let listener: WeakListener
            let site: Site?
        }

        private let mainMailbox: ActorMailbox
        private let report: @Sendable (BroadcastDiagnostic) -> Void
        /// The classes and protocols answered.
        private var answered: Set<Key> = []
        /// Per protocol, per class: the ones left open.
        private var open: [ObjectIdentifier: [ObjectIdentifier: Open]] = [:]

        init(mainMailbox: ActorMailbox, report: @escaping @Sendable (BroadcastDiagnostic) -> Void) {
            self.mainMailbox = mainMailbox
            self.report = report
        }

        /// Checks the listeners of `entries`, just taken in by `P`'s index in
        /// `context`, that registered without the main actor, and, where
        /// `context` can check the main actor's isolated conformances, those
        /// left open for `P`.
        ///
        /// Runs under the broadcaster's lock: it casts and enqueues, and
        /// calls no listener code.
        mutating func noteTakenIn<P>(
            _ entries: ArraySlice<ListenerEntry?>, as _: P.Type, in context: inout DeliveryContext
        ) {
            let protocolID = ObjectIdentifier(P.self)
            let seesMainActor = context.castsAreDefinitive(on: MainActor.shared)
            // Conform to `P` where the main actor's conformances are seen.
            var conformingOnMainActor: [(object: AnyObject, site: Site?)] = []
            if seesMainActor, let waiting = open.removeValue(forKey: protocolID) {
                for (type, listener) in waiting {
                    answered.insert(Key(type: type, protocolType: protocolID))
                    guard let object = listener.listener.object, Self.conforms(object, as: P.self) else { continue }
                    conformingOnMainActor.append((object, listener.site))
                }
            }
            for case let entry? in entries where entry.isolationBox !== IsolationBox.mainActor {
                guard entry.listens(to: protocolID), let object = entry.liveObject else { continue }
                let type = ObjectIdentifier(Swift.type(of: object))
                let key = Key(type: type, protocolType: protocolID)
                guard !answered.contains(key) else { continue }
                let conformsHere = Self.conforms(object, as: P.self)
                if seesMainActor || conformsHere {
                    // A success off the main actor is not isolated to it.
                    answered.insert(key)
                    open[protocolID]?[type] = nil
                    if seesMainActor && conformsHere { conformingOnMainActor.append((object, entry.registrationSite)) }
                } else if open[protocolID]?[type]?.listener.object == nil {
                    open[protocolID, default: [:]][type] = Open(
                        listener: WeakListener(object), site: entry.registrationSite)
                }
            }
            guard !conformingOnMainActor.isEmpty else { return }
            let offMainActor = Self.conformOnANewThread(conformingOnMainActor.map(\.object), as: P.self)
            for (listener, conforms) in zip(conformingOnMainActor, offMainActor) where !conforms {
                let diagnostic = BroadcastDiagnostic(
                    kind: .isolatedConformanceRegisteredOffMainActor,
                    typeName: String(describing: Swift.type(of: listener.object)),
                    protocolName: String(describing: P.self),
                    fileID: listener.site.map { "\($0.fileID)" } ?? "", line: listener.site.map { Int($0.line) } ?? 0)
                let report = self.report
                mainMailbox.enqueue { _ in report(diagnostic) }
            }
        }

        /// The cast a delivery makes, here.
        private static func conforms<P>(_ object: AnyObject, as _: P.Type) -> Bool {
            IndexMember.castAndCall(object, as: P.self) { _ in }
        }

        /// The same casts on a new thread, outside any task and any actor,
        /// waited for; the caller holds `objects` meanwhile.
        private static func conformOnANewThread<P>(_ objects: [AnyObject], as _: P.Type) -> [Bool] {
            let listeners = objects.map(WeakListener.init)
            let answer = ThreadAnswer()
            Thread.detachNewThread {
                answer.set(listeners.map { $0.object.map { conforms($0, as: P.self) } ?? true })
            }
            return answer.wait()
        }
    }

    /// Answers handed from a thread to the code waiting for them.
    private final class ThreadAnswer: @unchecked Sendable {
        // @unchecked Sendable: `answers` is only read or written while
        // `condition` is locked. A pthread condition rather than a
        // semaphore: ThreadSanitizer sees its ordering on Linux.
        private let condition = NSCondition()
        private var answers: [Bool]?

        func set(_ answers: [Bool]) {
            condition.lock()
            self.answers = answers
            condition.signal()
            condition.unlock()
        }

        func wait() -> [Bool] {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let answers { return answers }
                condition.wait()
            }
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
