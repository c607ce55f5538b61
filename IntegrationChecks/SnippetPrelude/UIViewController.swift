// UIKit's view controller, reduced to the members the snippets use (UIKit itself exists only on Apple platforms).
#if !canImport(UIKit)
    import Foundation

    @MainActor
    open class UIViewController {
        var view: UIView! = UIView()
        var additionalSafeAreaInsets = UIEdgeInsets()

        init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}
        /// Public because an open class's required initializer must be.
        public required init?(coder: NSCoder) {}

        func viewDidLoad() {}
        func viewWillAppear(_ animated: Bool) {}
        func viewDidDisappear(_ animated: Bool) {}
    }
#endif
