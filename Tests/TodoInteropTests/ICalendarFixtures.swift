/// VTODOs as other programs write them (the shapes of their exports, trimmed to one todo each).
enum ICalendarFixtures {
    /// Thunderbird (Lightning): floating times, a VTIMEZONE, X-MOZ properties, an alarm.
    static let thunderbird = """
        BEGIN:VCALENDAR\r
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r
        VERSION:2.0\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:STANDARD\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        TZNAME:CET\r
        DTSTART:19701025T030000\r
        END:STANDARD\r
        END:VTIMEZONE\r
        BEGIN:VTODO\r
        CREATED:20261101T090000Z\r
        LAST-MODIFIED:20261120T101500Z\r
        DTSTAMP:20261120T101500Z\r
        UID:6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f\r
        SUMMARY:Renew passport\\, before the trip\r
        PRIORITY:3\r
        STATUS:IN-PROCESS\r
        PERCENT-COMPLETE:30\r
        CATEGORIES:Travel,Important Things\r
        DTSTART;TZID=Europe/Berlin:20261121T090000\r
        DUE;TZID=Europe/Berlin:20261128T180000\r
        DESCRIPTION:Photos first.\\nThen the form\\; sign it.\r
        X-MOZ-GENERATION:4\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;VALUE=DURATION:-PT15M\r
        DESCRIPTION:Default Mozilla Description\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    /// Nextcloud Tasks (sabre/vobject): a non-UUID UID, a date due, a parent, a subtask order.
    static let nextcloud = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Nextcloud Tasks v0.16.1\r
        BEGIN:VTODO\r
        UID:2d6e1b8c9a\r
        CREATED:20261110T120000Z\r
        LAST-MODIFIED:20261122T080000Z\r
        DTSTAMP:20261122T080000Z\r
        SUMMARY:Buy milk\r
        PRIORITY:9\r
        DUE;VALUE=DATE:20261125\r
        RELATED-TO;RELTYPE=PARENT:7a8b9c0d1e\r
        X-APPLE-SORT-ORDER:12345\r
        CATEGORIES:home\r
        CATEGORIES:errands\r
        RRULE:FREQ=WEEKLY;BYDAY=SA\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    /// Apple Reminders (via iCloud CalDAV): completed, folded long lines, LF-only line ends.
    static let appleReminders = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Apple Inc.//iOS 17.1//EN
        CALSCALE:GREGORIAN
        BEGIN:VTODO
        COMPLETED:20261121T073000Z
        CREATED:20261115T063000Z
        DTSTAMP:20261121T073000Z
        LAST-MODIFIED:20261121T073000Z
        PERCENT-COMPLETE:100
        SEQUENCE:2
        STATUS:COMPLETED
        SUMMARY:Call the plumber about the leaking tap in the upstairs bathroom be
         fore the weekend
        UID:A1B2C3D4-E5F6-4789-ABCD-0123456789AB
        X-APPLE-SORT-ORDER:643123456
        END:VTODO
        END:VCALENDAR

        """
}
