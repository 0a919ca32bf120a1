/// The columns `line` takes on a terminal, for the characters the tests print: CJK and
/// emoji take two, the rest one. A check of todoctl's widths that does not use its own code.
func terminalColumns(of line: String) -> Int {
    line.unicodeScalars.reduce(0) { sum, scalar in
        let wide = (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
            || (0xAC00...0xD7A3).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value) || (0x1F300...0x1FAFF).contains(scalar.value)
        return sum + (wide ? 2 : 1)
    }
}
