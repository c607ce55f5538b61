// UIKit's view, reduced to the members the snippets use (UIKit itself exists only on Apple platforms).
#if !canImport(UIKit)
    import Foundation

    @MainActor
    open class UIView {
        struct AnimationOptions: OptionSet, Sendable {
            let rawValue: UInt
        }

        var bounds = CGRect.zero

        func convert(_ rect: CGRect, to view: UIView?) -> CGRect { rect }

        class func animate(
            withDuration duration: TimeInterval,
            delay: TimeInterval,
            options: UIView.AnimationOptions = [],
            animations: @escaping () -> Void,
            completion: ((Bool) -> Void)? = nil
        ) {
            animations()
            completion?(true)
        }
    }
#endif
