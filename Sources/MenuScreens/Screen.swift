import Geometry
import KioskConfiguration
import LayoutCore
import Raster

/// What one shape (arc, dial, list) adds to a screen: its controller, the part of the screen it
/// moves in, and how it draws there.
public protocol MenuShape {
    /// The config's options for this shape (`ArcStyle`, `DialStyle`, `ListStyle`).
    associatedtype Style
    associatedtype Controller: MenuController
    /// Lays the shape out for the screen size of `resources`; `showsBack`: the header is there
    /// even without a title.
    init(config: ScreenConfig, style: Style, resources: ScreenResources, showsBack: Bool)
    var controller: Controller { get set }
    /// Where the shape draws, within `bounds` (the screen): what a frame that is not full redraws.
    func damage(within bounds: PixelRect) -> PixelRect
    /// Draws the shape as its controller stands, over the chrome; the canvas is clipped to `damage`.
    func draw(on canvas: Canvas, items: [MenuItem], resources: ScreenResources)
    /// The size of the shape's items: the title is never drawn smaller.
    var levelBelowTitle: Double { get }
    /// The title as drawn is `size`: a level between it and the items (a list's section headers)
    /// is drawn no larger.
    mutating func titleDrawn(at size: Double)
}

extension MenuShape {
    public mutating func titleDrawn(at size: Double) {}
}

/// A screen of one shape: what every screen has (its config, the shared resources, the chrome
/// drawn once into a cache, the back button) around the shape's controller and drawing.
/// A frame restores the shape's damage from the chrome cache and draws the shape there.
public final class Screen<Shape: MenuShape>: MenuScreen {
    public let config: ScreenConfig
    let resources: ScreenResources
    /// The shape's controller and drawing; read it to inspect a screen, drive it through the screen.
    public private(set) var shape: Shape
    /// `config.items`, flattened once.
    private let items: [MenuItem]
    private let chrome: PixelBuffer

    public init(config: ScreenConfig, style: Shape.Style, resources: ScreenResources, showsBack: Bool) throws(RasterError) {
        self.config = config
        self.resources = resources
        items = config.items
        shape = Shape(config: config, style: style, resources: resources, showsBack: showsBack)
        if showsBack { shape.controller.motion.backButton = resources.backButton(reading: config.reading, itemSize: shape.levelBelowTitle) }
        chrome = try PixelBuffer(width: resources.width, height: resources.height)
        if let size = resources.drawChrome(into: chrome, background: config.background, title: config.title, showsBack: showsBack,
                                           reading: config.reading, levelBelow: shape.levelBelowTitle) {
            shape.titleDrawn(at: size)
        }
    }

    public var selectedIndex: Int { shape.controller.selectedIndex }
    public var isMoving: Bool { shape.controller.isMoving }
    public var needsFrame: Bool { shape.controller.needsFrame }
    public var position: ScrollOffset { shape.controller.position }
    public func select(_ index: Int) { shape.controller.jump(toItem: index) }
    public func jump(to position: ScrollOffset) { shape.controller.jump(to: position) }
    public var isHeld: Bool { shape.controller.motion.isHeld }
    public func takeHold(now: Double) { shape.controller.takeHold(at: now) }
    public func handle(_ input: MenuInput, now: Double) { shape.controller.handle(input, now: now) }
    public func update(now: Double) -> [MenuEvent] { shape.controller.update(now: now) }

    /// The part of the screen a frame that is not full redraws.
    public var damage: PixelRect { shape.damage(within: resources.bounds) }

    public func draw(on canvas: Canvas, full: Bool) -> PixelRect {
        let moving = damage
        let damage = full ? resources.bounds : moving
        canvas.target.copyRows(from: chrome, rect: damage)
        canvas.withClip(moving) { shape.draw(on: canvas, items: items, resources: resources) }
        return damage
    }
}
