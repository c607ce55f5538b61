// A recorder of names, as Testing with Broadcast's handler and loop fill it.
import BroadcastTesting

nonisolated let names = BroadcastRecorder<String>()
