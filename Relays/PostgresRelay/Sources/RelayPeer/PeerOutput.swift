import Foundation

/// Writes whole lines to standard output, unbuffered, from any thread.
final class PeerOutput: @unchecked Sendable {
    // @unchecked Sendable: the lock keeps two lines from interleaving; the
    // file handle is used only while it is held.
    private let lock = NSLock()

    func say(_ line: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    /// The lines of standard input, read on a thread of their own; the
    /// sequence ends with the input.
    static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let line = readLine() {
                    continuation.yield(line)
                }
                continuation.finish()
            }
        }
    }
}
