/// A finished part: its head and the value its consumer made of its body.
public struct MultipartPart<Value> {
    /// The part's headers.
    public var head: MultipartPartHead
    /// What the consumer made of the body.
    public var value: Value

    /// A part.
    public init(head: MultipartPartHead, value: Value) {
        self.head = head
        self.value = value
    }

    /// The form field name.
    public var name: String { head.name }
}

extension MultipartPart: Sendable where Value: Sendable {}

extension Array {
    /// The first part of field `name`, in body order.
    public func first<Value>(named name: String) -> MultipartPart<Value>? where Element == MultipartPart<Value> {
        first { $0.head.name == name }
    }

    /// Every part of field `name` (repeated fields such as several `dsym` files), in body order.
    public func all<Value>(named name: String) -> [MultipartPart<Value>] where Element == MultipartPart<Value> {
        filter { $0.head.name == name }
    }
}
