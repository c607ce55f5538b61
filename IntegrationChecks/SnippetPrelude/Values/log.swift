// A server's audit log, safe to call from any thread.
import Foundation

nonisolated final class AuditLog: @unchecked Sendable {
    // @unchecked Sendable: `names` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var names: [String] = []
    func record(_ event: UserSignedIn) { lock.withLock { names.append(event.name) } }
}

nonisolated let log = AuditLog()
