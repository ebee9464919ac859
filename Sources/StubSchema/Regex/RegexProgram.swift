/// A regular expression compiled for a Pike VM: a list of instructions a set of threads steps
/// through together, one input scalar at a time, so matching costs at most input length ×
/// program length steps, whatever the pattern (no backtracking, no catastrophic cases).
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        case literal(UInt32)
        case set(Int)
        case split(Int, Int)
        case jump(Int)
        case start
        case end
        case boundary(Bool)
        case match
    }

    /// The most instructions a pattern may compile to (`a{1000}{1000}` is refused).
    static let maxInstructions = 50_000

    private(set) var instructions: [Instruction] = []
    private(set) var sets: [RegexCharacterSet] = []

    init(_ node: RegexNode) throws(RegexError) {
        guard node.size < RegexProgram.maxInstructions else {
            throw RegexError(message: "the pattern expands to more than \(RegexProgram.maxInstructions) steps", offset: 0, unsupported: true)
        }
        emit(node)
        instructions.append(.match)
    }

    private mutating func emit(_ node: RegexNode) {
        switch node {
        case .empty: break
        case .literal(let s): instructions.append(.literal(s.value))
        case .set(let set):
            sets.append(set)
            instructions.append(.set(sets.count - 1))
        case .start: instructions.append(.start)
        case .end: instructions.append(.end)
        case .wordBoundary(let yes): instructions.append(.boundary(yes))
        case .sequence(let parts): for part in parts { emit(part) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (i, branch) in branches.enumerated() {
                if i < branches.count - 1 {
                    let split = instructions.count
                    instructions.append(.split(split + 1, -1))
                    emit(branch)
                    jumps.append(instructions.count)
                    instructions.append(.jump(-1))
                    instructions[split] = .split(split + 1, instructions.count)
                } else {
                    emit(branch)
                }
            }
            for j in jumps { instructions[j] = .jump(instructions.count) }
        case .repetition(let inner, let min, let max):
            for _ in 0..<min { emit(inner) }
            if let max {
                // Each optional copy may be skipped to the end.
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(instructions.count)
                    instructions.append(.split(instructions.count + 1, -1))
                    emit(inner)
                }
                for s in splits { instructions[s] = .split(s + 1, instructions.count) }
            } else {
                let loop = instructions.count
                instructions.append(.split(loop + 1, -1))
                emit(inner)
                instructions.append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
            }
        }
    }

    /// True when the pattern matches somewhere in `scalars`; `steps` counts thread steps and
    /// matching stops (answering nil) once it passes `limit`.
    func matches(_ scalars: [Unicode.Scalar], steps: inout Int, limit: Int) -> Bool? {
        let count = instructions.count
        var current = ThreadList(capacity: count)
        var next = ThreadList(capacity: count)
        var stack: [Int] = []
        for position in 0...scalars.count {
            // A new thread at each position: the pattern may match anywhere.
            if add(0, at: position, in: scalars, to: &current, stack: &stack, steps: &steps) { return true }
            if steps > limit { return nil }
            guard position < scalars.count else { break }
            let scalar = scalars[position]
            for pc in current.members {
                steps += 1
                let advances: Bool
                switch instructions[pc] {
                case .literal(let v): advances = scalar.value == v
                case .set(let i): advances = sets[i].contains(scalar)
                default: advances = false
                }
                if advances, add(pc + 1, at: position + 1, in: scalars, to: &next, stack: &stack, steps: &steps) { return true }
            }
            if steps > limit { return nil }
            swap(&current, &next)
            next.clear()
        }
        return false
    }

    /// Adds the thread at `pc` and every thread reachable without input; true on reaching `match`.
    private func add(_ pc: Int, at position: Int, in scalars: [Unicode.Scalar], to list: inout ThreadList, stack: inout [Int], steps: inout Int) -> Bool {
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            steps += 1
            switch instructions[pc] {
            case .match: stack.removeAll(); return true
            case .jump(let to): stack.append(to)
            case .split(let a, let b): stack.append(b); stack.append(a)
            case .start: if position == 0 { stack.append(pc + 1) }
            case .end: if position == scalars.count { stack.append(pc + 1) }
            case .boundary(let wanted):
                let before = position > 0 && RegexCharacterSet.isWord(scalars[position - 1])
                let after = position < scalars.count && RegexCharacterSet.isWord(scalars[position])
                if (before != after) == wanted { stack.append(pc + 1) }
            case .literal, .set: break
            }
        }
        return false
    }
}

/// A sparse set of program counters, cleared in constant time.
struct ThreadList {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    /// Adds `pc`; false when it was already there.
    mutating func insert(_ pc: Int) -> Bool {
        let i = sparse[pc]
        if i < count && dense[i] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    var members: ArraySlice<Int> { dense[0..<count] }
    mutating func clear() { count = 0 }
}
