# frozen_string_literal: true

require_relative "../sms_emulator_kit"

module SmsEmulatorKit
  # Minitest: `include SmsEmulatorKit::Minitest` in a test class gives each test `sms`, a world of its own, made
  # before it and deleted after it; a failing test's timeline is written and named in the output. Settings: override
  # `sms_world_options`, as World.create names them.
  module Minitest
    def sms = @sms

    def sms_world_options = {}

    def before_setup
      super
      @sms = World.create(Emulator.shared.control, name: sms_test_id, **sms_world_options)
    end

    def after_teardown
      if @sms
        unless passed? || skipped?
          file = Timeline.write(sms_test_id, @sms.timeline_html)
          warn "\n#{Settings::ERROR_PREFIX}the timeline of #{sms_test_id}: #{file}"
        end
        @sms.close
      end
      super
    end

    private

    def sms_test_id = "#{self.class.name}##{name}"
  end
end
