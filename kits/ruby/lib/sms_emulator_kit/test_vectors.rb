# frozen_string_literal: true

require "json"

module SmsEmulatorKit
  # The repository's shared test vectors (`signing.json`, `schedule.json`, `webhooks.json`, ..., each
  # `{"description", "cases"}`, and `kit-contract.json`), shipped in the gem (`resources/test-vectors/`) so an app's own
  # signer, schedule writer or webhook parser can be checked against the cases the emulator and every kit pass; read
  # from the checkout's `test-vectors/` when the kit runs from a clone.
  module TestVectors
    def self.path(name)
      [File.expand_path("../../resources/test-vectors", __dir__),
       File.expand_path("../../../../test-vectors", __dir__)].map { |folder| File.join(folder, name) }
        .find { |path| File.file?(path) } ||
        raise(EmulatorError, "#{Settings::ERROR_PREFIX}the kit carries no test-vectors/#{name}: reinstall the sms_emulator_kit gem")
    end

    # One file, parsed.
    def self.read(name)
      JSON.parse(File.read(path(name)))
    end
  end
end
