// Broadcast demo: `swift run BroadcastDemo`.
print("Broadcast demo: typed, weak, protocol-based broadcasting")
await runCoreDemo()
await runStreamDemo()
await runStateDemo()
await runSignOutDemo()
await runSystemBridgeDemo()
print("\nDone.")
