// A notification center, as snippets that post to one assume.
import Foundation

let center = NotificationCenter()
