/// A growable buffer of plain values, appended to without the checks of `Array` and handed over
/// without copying. The owner deallocates it.
struct GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }
    /// The elements (the memory stays the buffer's).
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
        nonmutating unsafeMutableAddress { base + index }
    }

    @inline(__always)
    private mutating func reserve(_ total: Int) {
        guard total > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < total { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { reserve(count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        reserve(count + elements.count)
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    mutating func append<S: Sequence<Element>>(contentsOf elements: S) {
        for element in elements { append(element) }
    }

    /// Removes the last `k` elements (plain values: nothing to deinitialize).
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count)
        count -= k
    }

    func deallocate() { base.deallocate() }
}
