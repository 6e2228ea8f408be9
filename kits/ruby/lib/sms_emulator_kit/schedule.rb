# frozen_string_literal: true

require "time"

module SmsEmulatorKit
  # Times as the emulator takes them: schedule text YYYY-MM-DDTHH:MM±HH:MM (test-vectors/schedule.json), instants as
  # ISO text, durations as "15m" or milliseconds; a Time is accepted wherever an instant's text is.
  module Schedule
    # An instant as the API's schedule text in `offset`; a time between minutes rounds up, never earlier. Given text
    # (such as a message's `schedule`, which the API answers with seconds), the same instant in the text's own offset.
    def self.format(instant, offset = "+02:00")
      if instant.is_a?(String)
        offset = Regexp.last_match(1) if instant =~ /([+-]\d{2}:\d{2})\z/
        instant = Time.iso8601(instant)
      end
      utc = instant.getutc
      whole = Time.utc(utc.year, utc.month, utc.day, utc.hour, utc.min)
      whole += 60 if whole < utc
      whole.getlocal(offset).strftime("%Y-%m-%dT%H:%M") + offset
    end

    # A duration as the control API takes it: text as it is ("15m", "2h"), or whole milliseconds.
    def self.duration(duration)
      return duration if duration.is_a?(String) || (duration.is_a?(Integer) && duration >= 0)

      raise ArgumentError, "a duration is text such as \"15m\" or whole milliseconds, not #{duration.inspect}"
    end

    # An instant as the control API takes it: text as it is, a Time as ISO 8601 text with its offset.
    def self.instant(instant)
      instant.is_a?(String) ? instant : instant.iso8601(3)
    end
  end
end
