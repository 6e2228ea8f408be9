# frozen_string_literal: true

require_relative "spec_helper"
require "open3"
require "tmpdir"

RSpec.describe "the timeline of a failing example" do
  it "is written under the run's own folder and named in the output" do
    Dir.mktmpdir("sms-ruby-timelines-") do |folder|
      env = { "SMS_EMULATOR_URL" => SmsEmulatorKit::Emulator.shared.origin, "SMS_EMULATOR_TIMELINE_DIR" => folder }
      output, status = Open3.capture2e(env, Gem.ruby, "-S", "rspec", File.expand_path("fixtures/failing_example.rb", __dir__))
      expect(status.exitstatus).to eq(1), output
      id = "spec/fixtures/failing_example.rb::reminders are delivered before nine"
      written = Dir.glob(File.join(folder, "run-*", SmsEmulatorKit::Contract.timeline_file(id)))
      expect(written.size).to eq(1), output
      expect(output).to include("sms-emulator: the timeline of #{id}: #{written.first}")
      expect(File.read(written.first)).to include("POST /v1/messages")
    end
  end
end
