import Broadcast
import BroadcastTesting

/// A `for await` loop in its own task, and the way a test waits for it: the
/// loop records what it did in a `BroadcastRecorder` (the BroadcastTesting
/// library), and the demo awaits the count it expects, with a deadline.
@MainActor
func runStreamDemo(broadcaster: Broadcaster = Broadcaster()) async {
    step("A for-await loop in its own task greets each user; the demo waits for it as a test would")
    let greetings = BroadcastRecorder<String>()
    let users = broadcaster.events(of: User.self)  // registered now: nothing posted from here on is missed
    let greeter = Task {
        for await user in users { greetings.record("Welcome, \(user.name)") }
    }

    broadcaster.post(User(name: "Ada"))
    broadcaster.post(User(name: "Grace"))
    do {
        try await greetings.waitForValues(count: 2, timeout: .seconds(10))  // resumes at the second greeting
        for greeting in greetings.values { report("greeter loop     \(greeting)") }
    } catch {
        report("greeter loop     \(error)")  // where, what was expected, what arrived
    }
    greeter.cancel()
}
