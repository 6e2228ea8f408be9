# frozen_string_literal: true

module SmsEmulatorKit
  # One world's own test clock (`sms.clock`): every move answers after the webhooks it made due were tried, and only this
  # world's tasks fire, so tests sharing an emulator never move each other's time.
  class WorldClock
    attr_reader :id

    def initialize(control, id)
      @control = control
      @id = id
    end

    # Moves the clock forward ("15m" or milliseconds).
    # @return [Answers::TestClock]
    def advance(duration) = @control.clocks_move(id, { "advance" => Schedule.duration(duration) })

    # Sets the clock to an instant (ISO text or a Time); queued events fire in time order on the way.
    # @return [Answers::TestClock]
    def set(instant) = @control.clocks_move(id, { "set" => Schedule.instant(instant) })

    # Runs the clock until nothing is queued, or for at most `limit` of its time (default 30 days).
    # @return [Answers::TestClock]
    def run_until_idle(limit = nil)
      @control.clocks_move(id, { "runUntilIdle" => true, "limit" => limit && Schedule.duration(limit) }.compact)
    end

    # Runs the clock to its next queued event.
    # @return [Answers::TestClock]
    def next = @control.clocks_move(id, { "next" => true })

    # The clock's time now.
    # @return [Time]
    def now = Time.iso8601(@control.clocks_get(id).time)
  end
end
