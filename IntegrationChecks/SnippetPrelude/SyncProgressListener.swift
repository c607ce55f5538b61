// A listener protocol for the progress of a sync.
nonisolated protocol SyncProgressListener: AnyObject { func syncProgressed(_ fraction: Double) }
