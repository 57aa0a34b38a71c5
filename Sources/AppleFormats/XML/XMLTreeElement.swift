/// One element of a small XML document read by `XMLTreeReader`: name, attributes, the text
/// directly inside it (entities and CDATA resolved) and its child elements.
struct XMLTreeElement: Sendable, Equatable {
    var name: String
    var attributes: [String: String]
    var text: String
    var children: [XMLTreeElement]

    /// The first child named `name`.
    func child(_ name: String) -> XMLTreeElement? { children.first { $0.name == name } }

    /// The text of the first child named `name`.
    func childText(_ name: String) -> String? { child(name)?.text }
}
