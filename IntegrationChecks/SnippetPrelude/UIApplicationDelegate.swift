// UIKit's application delegate protocol, with none of its optional methods (UIKit itself exists only on Apple platforms).
#if !canImport(UIKit)
    import Foundation

    @MainActor
    protocol UIApplicationDelegate: NSObjectProtocol {}
#endif
