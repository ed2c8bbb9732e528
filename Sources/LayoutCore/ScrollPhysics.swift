/// Tunables of scrolling; `items` suits arc and dial menus, `pixels` free-scrolling lists.
public struct ScrollPhysics: Hashable, Sendable {
    /// A flick at velocity v carries on for about `v · projection` before it settles.
    public var projection: Double
    /// Slower releases than this (units per second) just snap to the nearest stop.
    public var minimumFlingVelocity: Double
    /// Flicks faster than this are treated as this fast.
    public var maximumVelocity: Double
    /// Drag samples older than this before the release do not count towards its velocity.
    public var velocityWindow: Double
    /// A finger that rested this long before lifting throws nothing.
    public var restBeforeRelease: Double
    /// Duration of a snap to the nearest stop, and of one knob detent.
    public var snapDuration: Double
    public var detentDuration: Double
    /// Bounds on any animation's length.
    public var minimumDuration: Double
    public var maximumDuration: Double

    public init(
        projection: Double, minimumFlingVelocity: Double, maximumVelocity: Double, velocityWindow: Double = 0.1,
        restBeforeRelease: Double = 0.06, snapDuration: Double = 0.25, detentDuration: Double = 0.18,
        minimumDuration: Double = 0.08, maximumDuration: Double = 2.5
    ) {
        self.projection = projection
        self.minimumFlingVelocity = minimumFlingVelocity
        self.maximumVelocity = maximumVelocity
        self.velocityWindow = velocityWindow
        self.restBeforeRelease = restBeforeRelease
        self.snapDuration = snapDuration
        self.detentDuration = detentDuration
        self.minimumDuration = minimumDuration
        self.maximumDuration = maximumDuration
    }

    /// Arc and dial menus, measured in items.
    public static let items = ScrollPhysics(projection: 0.35, minimumFlingVelocity: 1.5, maximumVelocity: 60)
    /// Lists measured in pixels.
    public static let pixels = ScrollPhysics(projection: 0.35, minimumFlingVelocity: 80, maximumVelocity: 8000)
}
