# frozen_string_literal: true

# Test worlds for Ruby suites of apps that send SMS, on sms-emulator: `require "sms_emulator_kit/rspec"` (`:sms`
# metadata, matchers) or `require "sms_emulator_kit/minitest"` (`include SmsEmulatorKit::Minitest`).
require_relative "sms_emulator_kit/settings"
require_relative "sms_emulator_kit/errors"
require_relative "sms_emulator_kit/contract"
require_relative "sms_emulator_kit/test_vectors"
require_relative "sms_emulator_kit/http"
require_relative "sms_emulator_kit/control"
require_relative "sms_emulator_kit/signing"
require_relative "sms_emulator_kit/schedule"
require_relative "sms_emulator_kit/sms_client"
require_relative "sms_emulator_kit/emulator"
require_relative "sms_emulator_kit/world_clock"
require_relative "sms_emulator_kit/world"
require_relative "sms_emulator_kit/timeline"
require_relative "sms_emulator_kit/cost"
require_relative "sms_emulator_kit/suite_spend"

module SmsEmulatorKit
  VERSION = "0.1.0"
end
