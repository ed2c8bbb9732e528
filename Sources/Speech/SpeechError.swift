/// A failed call of libespeak-ng or libasound, with the call's name and the library's own words.
public struct SpeechError: Error, Equatable, CustomStringConvertible, Sendable {
    public let call: String
    public let message: String

    public init(_ call: String, _ message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call): \(message)" }
}
