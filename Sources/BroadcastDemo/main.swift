// Broadcast demo: `swift run BroadcastDemo`.
print("Broadcast demo: typed, weak, protocol-based broadcasting")
await runCoreDemo()
await runSystemBridgeDemo()
print("\nDone.")
