# frozen_string_literal: true

require "json"

module SmsEmulatorKit
  # The one kit contract (test-vectors/kit-contract.json), read where this kit finds it: the copy the gem carries, else
  # the checkout's. The resolution order's error, the start arguments and the timeline rule come from it.
  module Contract
    def self.path
      [File.expand_path("../../resources/kit-contract.json", __dir__),
       File.expand_path("../../../../test-vectors/kit-contract.json", __dir__)].find { |path| File.file?(path) } ||
        raise(EmulatorError, "#{Settings::ERROR_PREFIX}the kit contract is missing: reinstall the sms_emulator_kit gem")
    end

    def self.get
      @get ||= JSON.parse(File.read(path))
    end

    # The file name of a failing test's timeline, by the contract's rule: `sms-emulator-timeline-<test>.html`.
    def self.timeline_file(test_id)
      prefix = "sms-emulator-timeline-"
      suffix = ".html"
      name = test_id.b.gsub(/[^A-Za-z0-9_.\-]+/n, "_")
      room = get["timeline"]["maxLength"] - prefix.length - suffix.length
      # Cut from the front: the end of a test's id names the test.
      prefix + name[[0, name.length - room].max..] + suffix
    end
  end
end
