import TodoModel

/// A time of day typed as a word of its own right after a day, unquoted: `add Call due:tomorrow
/// 15:00` or `add Call --due fri 9am`. The shell makes two arguments of it, and the time is a
/// title word, as Taskwarrior reads it (`task add Call due:tomorrow 15:00` adds "Call 15:00"
/// due all day); todoctl keeps that, and says how to make it the time (outside probe 12).
public enum UnquotedTime {
    /// `15:00 went into the title; to make it the due time, quote it: 'due:tomorrow 15:00'`, for
    /// `words` as typed (a command's arguments, watch's `a` line split as the shell would), or
    /// nil. Only a bare time (`15:00`, `9am`, `3:30pm`, `noon`) right after a `due:`, `wait:` or
    /// `scheduled:` word with a day and no time, or after `--due`, `-d` or `--wait` and its day;
    /// the words after `--` are title words as typed, and not looked at.
    public static func hint(_ words: [String]) -> String? {
        let typed = words.prefix { $0 != "--" }
        let today = LocalDate(daysSince1970: 0)
        for index in typed.indices.dropLast() {
            let word = typed[index]
            // `due:tomorrow 15:00`
            if let colon = word.firstIndex(of: ":"), isTime(typed[index + 1]) {
                let name = word[..<colon].lowercased()
                let day = word[word.index(after: colon)...]
                if ["due", "wait", "scheduled"].contains(name), DueDateParser.parse(String(day), today: today) != nil {
                    return "\(typed[index + 1]) went into the title; to make it the \(name) time, quote it: '\(word) \(typed[index + 1])'"
                }
            }
            // `--due fri 9am`, `--due=fri 9am`
            let (option, day): (String, String?) = word.hasPrefix("--") && word.contains("=")
                ? (String(word.prefix { $0 != "=" }), String(word.drop { $0 != "=" }.dropFirst())) : (word, nil)
            guard let field = ["--due": "due", "-d": "due", "--wait": "wait"][option] else { continue }
            let dayIndex = day == nil ? index + 1 : index
            guard dayIndex + 1 < typed.endIndex, isTime(typed[dayIndex + 1]) else { continue }
            let dayWords = day ?? typed[dayIndex]
            guard DueDateParser.parse(dayWords, today: today) != nil else { continue }
            return "\(typed[dayIndex + 1]) went into the title; to make it the \(field) time, quote it: \(option) '\(dayWords) \(typed[dayIndex + 1])'"
        }
        return nil
    }

    /// A time of day alone (`15:00`, `9am`, `noon`), not a day: what `due:` reads as the next such time.
    private static func isTime(_ word: String) -> Bool {
        let lowered = word.lowercased()
        // A day with a time (2026-12-24T15:00, fri@9am) is no bare time; now and eod have no digits.
        guard lowered == "noon" || lowered.contains(where: \.isNumber), !lowered.contains("-"), !lowered.contains("@") else { return false }
        let today = LocalDate(daysSince1970: 0)
        guard DueDateParser.parse(word, today: today) == nil, let moment = DueDateParser.parseWithTime(word, today: today, now: TimeOfDay(minutes: 0)!)
        else { return false }
        return moment.time != nil
    }
}
