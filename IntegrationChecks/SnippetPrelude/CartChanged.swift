// The migration guide's cart: the notification name the app has posted for
// years, and the typed event that replaces it.
import Foundation

nonisolated extension Notification.Name {
    static let cartDidChange = Notification.Name("CartDidChange")
}

nonisolated struct CartChanged: Sendable, Equatable {
    let itemCount: Int
}
