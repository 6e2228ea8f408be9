# frozen_string_literal: true

module SmsEmulatorKit
  # The emulator could not be found, started or reached; the message says what was tried and what to do.
  class EmulatorError < StandardError; end

  # No HTTP answer at all: the connection was refused, reset or cut (a network fault the test asked for, or no emulator).
  class TransportError < EmulatorError; end

  # A control call the emulator refused: its status and the catalogued error code and description it answered.
  class ControlError < StandardError
    attr_reader :status, :code

    def initialize(status, code, description)
      @status = status
      @code = code
      super("#{Settings::ERROR_PREFIX}#{status} #{code}: #{description}")
    end
  end

  # An API answer other than 2xx: the status, the error code (`message` of the spec's error body) and its description.
  class ApiError < StandardError
    attr_reader :status, :code, :description, :retry_after

    def initialize(status, code, description, retry_after = nil)
      @status = status
      @code = code
      @description = description
      @retry_after = retry_after
      super("#{status} #{code}: #{description}")
    end
  end
end
