// The broadcaster an app or a test injects.
import Broadcast

nonisolated let broadcaster = Broadcaster()
