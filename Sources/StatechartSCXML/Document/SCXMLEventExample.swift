/// An example of an event the chart receives, as the document itself gives it for test paths:
/// an element `<test:event name="NAME" data="JSON"/>` in the namespace
/// ``SCXMLEventExample/namespace`` (`urn:statechart:test`), anywhere among the SCXML elements
/// of `<scxml>`, a state or a transition. An element in another namespace is an extension that
/// SCXML processors skip (Qt SCXML and uSCXML do), and Qt Creator's editor keeps it, with its
/// attributes, when it saves the chart; comments it drops.
///
/// ```xml
/// <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:test="urn:statechart:test" ...>
///   <state id="idle">
///     <transition event="order.placed" cond="_event.data.amount &gt; 100" target="review">
///       <test:event name="order.placed" data='{"amount": 120}'/>
///       <test:event name="order.placed" data='{"amount": 80}'/>
///     </transition>
///   </state>
/// </scxml>
/// ```
///
/// ``SCXMLTestPaths`` sends an event with examples once with each example's data, in document
/// order, instead of once without data; an example without `data` stands for the event
/// without data.
public struct SCXMLEventExample: Sendable, Hashable {
    /// `urn:statechart:test`, the namespace of `<test:event>`.
    public static let namespace = "urn:statechart:test"

    /// The `name` attribute: the event's name, `nil` when absent.
    public var name: String?
    /// The `data` attribute as written (JSON text), `nil` when absent.
    public var data: String?
    /// Where the element starts.
    public var sourceLocation: SCXMLSourceLocation

    /// Creates an example.
    public init(name: String?, data: String?, sourceLocation: SCXMLSourceLocation) {
        self.name = name
        self.data = data
        self.sourceLocation = sourceLocation
    }
}
