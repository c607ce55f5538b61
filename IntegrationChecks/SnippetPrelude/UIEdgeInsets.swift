// UIKit's edge insets (UIKit itself exists only on Apple platforms).
#if !canImport(UIKit)
    import Foundation

    struct UIEdgeInsets: Sendable {
        var top: CGFloat = 0
        var left: CGFloat = 0
        var bottom: CGFloat = 0
        var right: CGFloat = 0
    }
#endif
